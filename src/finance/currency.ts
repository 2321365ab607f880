/**
 * ISO 4217 codes in circulation, from the ICU data that ships with Node (`Intl.supportedValuesOf`,
 * updated with each Node release); fund and test codes like XXX are not in it.
 */
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

export function isCurrency(code: string): boolean {
  return CURRENCIES.has(code);
}
