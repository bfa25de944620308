import { html, type TemplateResult } from 'lit';

/**
 * The agent's avatar: the orb, a gradient of `avatar.color_1` and `avatar.color_2` (PROTOCOL.md section 2),
 * read from the theme tokens `--_orb-color-1` / `--_orb-color-2`. Decorative: the buttons around it carry the label.
 */
export function renderAvatar(size: 'small' | 'large' = 'small'): TemplateResult {
  return html`<span part="avatar" class="avatar orb ${size}" aria-hidden="true"></span>`;
}
