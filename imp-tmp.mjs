const t0 = performance.now(); const c0 = process.cpuUsage();
for (const s of process.argv.slice(2)) await import(s);
const c = process.cpuUsage(c0);
console.log(process.argv.slice(2).join(' '), Math.round(performance.now()-t0), 'ms wall', Math.round((c.user+c.system)/1000), 'ms cpu');
