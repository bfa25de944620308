/** The script-tag entry (the classic first script, vite.config.ts): starts the configuration reads, then registers `<voice-agent-widget>`. */
import './embed-early.js';
import { defineVoiceAgentWidget } from './widget/define-element.js';

defineVoiceAgentWidget(document.currentScript instanceof HTMLScriptElement ? document.currentScript.src : null);
