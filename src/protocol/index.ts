/** The public codec surface: records, opcode tables, framing, four-letter words and the frame describer. */

export * from './jute.js';
export * from './utf8.js';
export * from './bytes.js';
export * from './hex.js';
export * from './opcodes.js';
export * from './error-codes.js';
export * from './encode-error.js';

export * from './records/codec.js';
export * from './records/stat.js';
export * from './records/acl.js';
export * from './records/connect.js';
export * from './records/headers.js';
export * from './records/watcher-event.js';
export * from './records/create.js';
export * from './records/node-data.js';
export * from './records/children.js';
export * from './records/acl-ops.js';
export * from './records/watches.js';
export * from './records/auth.js';
export * from './records/admin.js';
export * from './records/opaque.js';
export * from './records/multi.js';

export * from './ops.js';
export * from './frame.js';
export * from './four-letter.js';
export * from './describe.js';
export * from './conversation.js';
export * from './reencode.js';
