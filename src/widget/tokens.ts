import { unsafeCSS } from 'lit';
import { TOKEN_DECLARATIONS } from '../config/theme.js';

/**
 * The token layer (DESIGN.md rule 6): `--_<token>: var(--voice-agent-<token>, var(--_cfg-<token>))`, generated from
 * the constant token list in src/config/theme.ts, never from configuration values.
 */
export const tokenStyles = unsafeCSS(`:host{${TOKEN_DECLARATIONS}}`);
