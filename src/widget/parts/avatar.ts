import { html, type TemplateResult } from 'lit';
import type { WidgetConfig } from '../config/types.js';

/**
 * The agent's avatar (PROTOCOL.md section 2, `avatar`): the orb, a gradient of `avatar.color_1` and `avatar.color_2`
 * (theme tokens `--_orb-color-1` / `--_orb-color-2`), or for `url` / `image` the picture at `custom_avatar_path`
 * (already checked: https or same-origin), the orb when there is none. Decorative: the controls around it carry the label.
 */
export function renderAvatar(config: WidgetConfig | null, size: 'small' | 'large' = 'small'): TemplateResult {
  const picture = config && config.avatar.type !== 'orb' ? config.custom_avatar_path : '';
  return picture
    ? html`<img part="avatar" class="avatar ${size}" src=${picture} alt="" referrerpolicy="no-referrer" />`
    : html`<span part="avatar" class="avatar orb ${size}" aria-hidden="true"></span>`;
}
