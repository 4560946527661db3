#!/usr/bin/env node
/**
 * Records, at build time, the commit shellward is built from: writes dist/build-info.json
 * (`{ "version", "commit", "dirty" }`), which `shellward init` reads to pin the GitHub Action and
 * the pre-commit hook to a real, full commit SHA while no release tag exists. `commit` is `null`
 * when the package directory is not the top of a git work tree (a tarball unpacked inside
 * another project's repository must not record that project's commit) or git is missing.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

function git(args) {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

let commit = null;
let dirty = null;
const top = git(['rev-parse', '--show-toplevel']);
if (top !== undefined && realpathSync(top) === realpathSync(root)) {
  const head = git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  if (head && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(head)) {
    commit = head;
    dirty = (git(['status', '--porcelain', '--untracked-files=no']) ?? '') !== '';
  }
}
mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(join(root, 'dist', 'build-info.json'), JSON.stringify({ version, commit, dirty }, null, 2) + '\n');
