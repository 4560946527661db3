/** The package version, read from package.json at build time through a JSON import. */
import pkg from '../../package.json' with { type: 'json' };

/** shellward's version (package.json `version`). */
export const VERSION: string = pkg.version;
