// WRONG: a misspelt property (`prop:dynamicVariable` for `prop:dynamicVariables`).
import type {} from 'voice-agent-widget/solid';

export const Misspelt = () => <voice-agent-widget agent-id="agent_demo_support" prop:dynamicVariable={{ a: 1 }} />;
