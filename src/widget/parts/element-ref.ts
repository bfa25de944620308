/**
 * How a part hands a rendered element to the controller that needs it (the transcript to follow, the terms dialog to
 * open, the elements that show a call's levels): a directive, so that no controller looks DOM up by class name.
 */
import { nothing } from 'lit';
import { Directive, directive, type ElementPart } from 'lit/directive.js';

/** What `elementRef` hands its element to: a controller's own callback (it keeps the element, never looks it up). */
export type ElementCallback = (element: Element) => void;

/**
 * `<div ${elementRef(callback)}>`: calls `callback` with the element at each render of the template, so a controller
 * holds the element a part rendered instead of finding it by class name (DESIGN.md, "A controller never finds DOM by
 * class name"). Smaller than Lit's `ref()` (no disconnection tracking): a controller checks `isConnected` itself.
 */
class ElementRef extends Directive {
  render(_callback: ElementCallback): typeof nothing {
    return nothing;
  }

  override update(part: ElementPart, [callback]: [ElementCallback]): typeof nothing {
    callback(part.element);
    return nothing;
  }
}

export const elementRef = directive(ElementRef);
