/** Request opcodes (RequestHeader.type, MultiHeader.type), named as in ZooDefs.OpCode. */
export const OpCode = {
  notification: 0,
  create: 1,
  delete: 2,
  exists: 3,
  getData: 4,
  setData: 5,
  getACL: 6,
  setACL: 7,
  getChildren: 8,
  sync: 9,
  ping: 11,
  getChildren2: 12,
  check: 13,
  multi: 14,
  create2: 15,
  reconfig: 16,
  checkWatches: 17,
  removeWatches: 18,
  createContainer: 19,
  deleteContainer: 20,
  createTTL: 21,
  multiRead: 22,
  auth: 100,
  setWatches: 101,
  sasl: 102,
  getEphemerals: 103,
  getAllChildrenNumber: 104,
  setWatches2: 105,
  addWatch: 106,
  whoAmI: 107,
  createSession: -10,
  closeSession: -11,
  error: -1,
} as const;

/** The name of an opcode (`create`, `getData`, ...). */
export type OpName = keyof typeof OpCode;
/** The number of an opcode. */
export type OpCodeValue = (typeof OpCode)[OpName];

const NAMES = new Map<number, OpName>();
for (const [name, code] of Object.entries(OpCode) as [OpName, number][]) NAMES.set(code, name);

/** The op's name, or `unknown` for an opcode ZooKeeper 3.5–3.9 does not define. */
export function opName(code: number): OpName | 'unknown' {
  return NAMES.get(code) ?? 'unknown';
}

/** Reserved xids (ClientCnxn): never taken by the normal request counter. */
export const Xid = {
  notification: -1,
  ping: -2,
  auth: -4,
  setWatches: -8,
} as const;

/** Node creation modes (CreateMode), the `flags` of CreateRequest. */
export const CreateFlags = {
  persistent: 0,
  ephemeral: 1,
  persistentSequential: 2,
  ephemeralSequential: 3,
  container: 4,
  persistentWithTTL: 5,
  persistentSequentialWithTTL: 6,
} as const;

/** Watcher.Event.EventType. */
export const EventType = {
  None: -1,
  NodeCreated: 1,
  NodeDeleted: 2,
  NodeDataChanged: 3,
  NodeChildrenChanged: 4,
  DataWatchRemoved: 5,
  ChildWatchRemoved: 6,
  PersistentWatchRemoved: 7,
} as const;

/** The name of a watch event type (`NodeCreated`, `NodeDataChanged`, ...). */
export type EventTypeName = keyof typeof EventType;

const EVENT_TYPE_NAMES = new Map<number, EventTypeName>(Object.entries(EventType).map(([k, v]) => [v, k as EventTypeName]));

/** The name of a wire EventType, or undefined for a number ZooKeeper does not define. */
export function knownEventType(type: number): EventTypeName | undefined {
  return EVENT_TYPE_NAMES.get(type);
}

/** Watcher.Event.KeeperState. */
export const KeeperState = {
  Unknown: -1,
  Disconnected: 0,
  NoSyncConnected: 1,
  SyncConnected: 3,
  AuthFailed: 4,
  ConnectedReadOnly: 5,
  SaslAuthenticated: 6,
  Expired: -112,
  Closed: 7,
} as const;

/** WatcherType for checkWatches/removeWatches (Persistent and PersistentRecursive are 3.9+). */
export const WatcherType = {
  Children: 1,
  Data: 2,
  Any: 3,
  Persistent: 4,
  PersistentRecursive: 5,
} as const;

/** AddWatchMode for addWatch. */
export const AddWatchMode = {
  Persistent: 0,
  PersistentRecursive: 1,
} as const;

/** ZooDefs.Perms. */
export const Perms = {
  READ: 1,
  WRITE: 2,
  CREATE: 4,
  DELETE: 8,
  ADMIN: 16,
  ALL: 31,
} as const;

/** The default jute.maxbuffer: the largest frame payload a server accepts. */
export const JUTE_MAX_BUFFER = 0xfffff;
