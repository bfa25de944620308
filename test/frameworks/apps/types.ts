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
  /** `previousConversationId`: the conversation this one continues (a restored one, issue 21), else null. */
  onConversation: (detail: { conversationId: string; previousConversationId?: string | null }) => void;
}

/** A mounted app: re-render it with new values (resolves once the framework has rendered them), or unmount it. */
export interface MountedApp {
  update(changes: Partial<Pick<AppProps, 'customerName' | 'variant'>>): Promise<void>;
  unmount(): void;
}

/** Each app's `app.js` exports `mount`. */
export type Mount = (container: HTMLElement, props: AppProps) => Promise<MountedApp>;

/**
 * The routed app of test/frameworks/routes.ts (issue 21 item 3): a root layout (a nav, the routed view, a footer) with
 * two "routes" switched by state (no router library), `home` and `pricing`. `placement`: the widget sits in the root
 * layout's footer (outside the routed view: routes keep it) or inside the home route's view (another route unmounts
 * it). In the footer it is one of three keyed siblings (`widget`, `hours`, `contact`); `widgetLast` puts it after them,
 * which the framework does by moving the widget's element (removed and inserted again in one task).
 */
export interface RoutedAppProps extends AppProps {
  placement: 'layout' | 'route';
  route: 'home' | 'pricing';
  widgetLast: boolean;
}

/** A mounted routed app: switch route or reorder the footer (resolves once the framework has rendered it), or unmount it. */
export interface MountedRoutedApp {
  update(changes: Partial<Pick<RoutedAppProps, 'route' | 'widgetLast'>>): Promise<void>;
  unmount(): void;
}

/** Each app's `app.js` that has one exports `mountRoutes`. */
export type MountRoutes = (container: HTMLElement, props: RoutedAppProps) => Promise<MountedRoutedApp>;
