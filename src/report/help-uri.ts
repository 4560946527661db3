/** Where shellward's rules are documented online (pure; shared by the text, SARIF and Action reports). */

/** Home page of the tool (`tool.driver.informationUri`). */
export const INFORMATION_URI = 'https://github.com/shellward/shellward';

/**
 * URL of the reference page of rule `id` (SARIF `helpUri`, the text report's "For more information"
 * lines): `docs/rules/<id>.md` on the default branch. Rule ids are never reused, so the URL of a
 * rule stays valid across releases.
 */
export function ruleHelpUri(id: string): string {
  return `${INFORMATION_URI}/blob/main/docs/rules/${encodeURIComponent(id)}.md`;
}
