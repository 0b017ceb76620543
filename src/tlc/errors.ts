// The TLC runner's failures live in the ground layer (TLA+ value parsing throws them too).
export { TlcOutputError, TlcUnavailableError } from '../core/tlc-errors.js';
