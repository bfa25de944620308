/**
 * A language's name as the conversation panel's language selector shows it (PROTOCOL.md section 2, `language`). Apart
 * from language.ts so that, in the script-tag build, it loads with the conversation chunk.
 */

/** The names `languageName` found (an `Intl.DisplayNames` is costly to make, and the header asks at each render). */
const names = new Map<string, string>();

/** A language's own name for itself (`de` → "Deutsch"), from the browser's `Intl.DisplayNames`; the tag when unknown. */
export function languageName(language: string): string {
  let name = names.get(language);
  if (name === undefined) {
    try {
      name = new Intl.DisplayNames([language], { type: 'language' }).of(language) ?? language;
    } catch {
      name = language;
    }
    names.set(language, name);
  }
  return name;
}
