// A loopback port nobody listens on (a target that refuses connections, or a free port for a server to take): the
// kit's own protocol/listen.ts freePort, under the name the tests use.
export { freePort as unusedLoopbackPort } from '../../protocol/listen.ts';
