// The Angular app of README's "Angular": a standalone component with CUSTOM_ELEMENTS_SCHEMA, no wrapper. Angular sets
// `[dynamicVariables]`, `[variant]`, `[serverUrl]` as DOM properties and listens with `(voice-agent-message)`. Compiled
// just in time (@angular/compiler in the page), zoneless change detection; an AOT build (ng build) takes the same
// component as it is.
import '@angular/compiler';
import 'voice-agent-widget/define.js';
import { ApplicationRef, Component, CUSTOM_ELEMENTS_SCHEMA, InjectionToken, inject, provideZonelessChangeDetection, signal } from '@angular/core';
import { bootstrapApplication } from '@angular/platform-browser';
import type { AppProps, MountedApp } from '../types.js';

const APP_PROPS = new InjectionToken<AppProps>('app props');

@Component({
  selector: 'framework-app',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <main>
      <h1>Angular</h1>
      <voice-agent-widget
        [attr.agent-id]="props.agentId"
        [serverUrl]="props.serverUrl"
        [variant]="variant()"
        [dynamicVariables]="{ customer_name: customerName() }"
        (voice-agent-message)="props.onMessage($any($event).detail)"
        (voice-agent-conversation)="props.onConversation($any($event).detail)"
      ></voice-agent-widget>
    </main>
  `,
})
class FrameworkApp {
  readonly props = inject(APP_PROPS);
  readonly customerName = signal(this.props.customerName);
  readonly variant = signal(this.props.variant);
}

export async function mount(container: HTMLElement, props: AppProps): Promise<MountedApp> {
  const host = document.createElement('framework-app');
  container.append(host);
  const appRef: ApplicationRef = await bootstrapApplication(FrameworkApp, {
    providers: [provideZonelessChangeDetection(), { provide: APP_PROPS, useValue: props }],
  });
  await appRef.whenStable();
  const app = appRef.components[0]!.instance as FrameworkApp;
  return {
    async update(changes) {
      if (changes.customerName !== undefined) app.customerName.set(changes.customerName);
      if (changes.variant !== undefined) app.variant.set(changes.variant);
      await appRef.whenStable();
    },
    unmount() {
      appRef.destroy();
      host.remove();
    },
  };
}
