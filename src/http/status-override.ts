/** res.locals key where a resolver's status override travels from HttpBridge to the REST envelope. */
export const STATUS_OVERRIDE = 'statusOverride';
