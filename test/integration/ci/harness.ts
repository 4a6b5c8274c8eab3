// The whole-app harness moved to test/support/app-harness.ts, shared by every integration test; these names stay
// for the files that import them from here.
export {
  type BotHarness as CiHarness,
  buttonOf,
  type Call,
  call,
  confirmText,
  type Seen,
  useBot as useCiBot,
  WEB,
} from '../../support/app-harness.js';
