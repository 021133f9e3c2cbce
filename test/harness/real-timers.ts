export { clearRealTimeout, now, setRealTimeout, sleep, type RealTimer } from '../../src/tools/local-server/real-timers.js';
