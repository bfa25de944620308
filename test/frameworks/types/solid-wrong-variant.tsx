// WRONG: `variant` is 'tiny' | 'compact' | 'full' | null, not a number.
import type {} from 'voice-agent-widget/solid';

export const WrongVariant = () => <voice-agent-widget agent-id="agent_demo_support" variant={42} />;
