/** The script-tag entry (built as one IIFE): registers `<voice-agent-widget>`, nothing else. */
import { defineVoiceAgentWidget } from './widget/define-element.js';

defineVoiceAgentWidget(document.currentScript instanceof HTMLScriptElement ? document.currentScript.src : null);
