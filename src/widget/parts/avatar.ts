import { css, html, type TemplateResult } from 'lit';
import type { WidgetConfig } from '../../config/types.js';

/** Options of `avatar`. */
export interface AvatarOptions {
  /** The validated configuration; null before it is read (the orb in the default colours). */
  config: WidgetConfig | null;
  /** `small` (36 px, the launcher) or `large` (40 px, the panel header). */
  size?: 'small' | 'large';
}

/**
 * The agent's avatar (`part="avatar"`; PROTOCOL.md section 2, `avatar`): the orb, a gradient of `avatar.color_1` and
 * `avatar.color_2` (theme tokens `--_orb-color-1` / `--_orb-color-2`), or for `url` / `image` the picture at
 * `custom_avatar_path` (already checked: https or same-origin), the orb when there is none. Decorative: the controls
 * around it carry the label.
 */
export function avatar({ config, size = 'small' }: AvatarOptions): TemplateResult {
  const picture = config && config.avatar.type !== 'orb' ? config.custom_avatar_path : '';
  return picture
    ? html`<img part="avatar" class="avatar ${size}" src=${picture} alt="" referrerpolicy="no-referrer" />`
    : html`<span part="avatar" class="avatar orb ${size}" aria-hidden="true"></span>`;
}

export const avatarStyles = css`
  .avatar {
    flex: none;
    width: 36px;
    height: 36px;
    border-radius: 50%;
    object-fit: cover;
    background: radial-gradient(circle at 30% 30%, var(--_orb-color-2), var(--_orb-color-1) 70%);
  }
  .avatar.large,
  .full .avatar {
    width: 40px;
    height: 40px;
  }
`;
