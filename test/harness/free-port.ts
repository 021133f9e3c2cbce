export { freePort, freePorts } from '../../src/tools/local-server/free-port.js';
