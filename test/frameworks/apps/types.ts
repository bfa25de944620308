/**
 * What every framework app of test/frameworks/apps/ takes and gives (test/frameworks/scenario.ts drives them alike).
 * Each renders one `<voice-agent-widget>` with `agent-id`, `server-url`, `variant` and the OBJECT property
 * `dynamicVariables` `{customer_name}`, and hands on the widget's `voice-agent-message` and `voice-agent-conversation`
 * events, listened to through the framework's own event syntax.
 */
export interface AppProps {
  serverUrl: string;
  agentId: string;
  customerName: string;
  variant: 'tiny' | 'compact' | 'full';
  onMessage: (detail: { source: 'agent' | 'user'; text: string }) => void;
  onConversation: (detail: { conversationId: string }) => void;
}

/** A mounted app: re-render it with new values (resolves once the framework has rendered them), or unmount it. */
export interface MountedApp {
  update(changes: Partial<Pick<AppProps, 'customerName' | 'variant'>>): Promise<void>;
  unmount(): void;
}

/** Each app's `app.js` exports `mount`. */
export type Mount = (container: HTMLElement, props: AppProps) => Promise<MountedApp>;
