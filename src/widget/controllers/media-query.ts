import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Follows one CSS media query (DESIGN.md rule 4): listens while the element is on the page, and only then. */
export class MediaQueryController implements ReactiveController {
  matches = false;
  #list: MediaQueryList | null = null;
  readonly #onChange = (): void => {
    this.matches = this.#list?.matches ?? false;
    this.host.requestUpdate();
  };

  constructor(private readonly host: ReactiveControllerHost, private readonly query: string) {
    host.addController(this);
  }

  hostConnected(): void {
    this.#list = matchMedia(this.query);
    this.#list.addEventListener('change', this.#onChange);
    this.matches = this.#list.matches;
  }

  hostDisconnected(): void {
    this.#list?.removeEventListener('change', this.#onChange);
    this.#list = null;
  }
}
