/** The fuzz engine (Node only): seeded targets over the codec and over a live session against a hostile server. */

export { CODEC_TARGETS, conversationTarget, decoderNames, decodersTarget, fourLetterTarget, frameDecoderTarget, type CodecTarget } from './codec-targets.js';
export { DEFAULT_GOLDEN_DIR, loadCorpus, type Corpus, type CorpusFrame } from './corpus.js';
export { inputRng, replayInput, runFuzz, type FuzzFailure, type FuzzRunOptions, type FuzzTarget, type TargetReport } from './engine.js';
export { HostileServer, type HandshakeAct, type HostileServerOptions, type ReplyAct, type ServerLink, type ServerPlan } from './hostile-server.js';
export { MemoryTransport } from './memory-transport.js';
export { fixPrefix, mutate, mutateOnce, MUTATIONS, randomSplits, type MutationName } from './mutate.js';
export { listenHostile, type HostileNetServer } from './net-server.js';
export { mixSeed, Prng } from './prng.js';
export { runSessionScenario, sessionTarget, type SessionScenarioOptions, type SessionScenarioResult } from './session-target.js';
export { describeThrown, FuzzViolation } from './violation.js';
export { VirtualClock } from './virtual-clock.js';
export { VirtualLink } from './virtual-link.js';
