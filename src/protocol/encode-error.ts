/**
 * Thrown when a caller asks the codec to encode something it cannot (a request body missing for an opcode that
 * needs one, a multi op type ZooKeeper does not accept). A programming error in the caller, never caused by
 * bytes from the network; the session validates user input before it gets here.
 */
export class JuteEncodeError extends Error {
  override readonly name = 'JuteEncodeError';
}
