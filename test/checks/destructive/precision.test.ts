/**
 * The hand-labelled sample of the calibration (docs/precision.md): small excerpts of real
 * scripts and Makefiles (Debian's dracut-core and live-build, the machine's own scripts and
 * CPython's installed Makefiles), each with its source path and the label it got. A finding
 * labelled true must still be reported at warning or error in the script profile; one labelled
 * false must not be (at most a note that says it is the acceptable form).
 */
import { describe, expect, it } from 'vitest';
import { lintText } from '../../helpers.js';

interface Labelled {
  readonly source: string;
  readonly text: string;
  /** The rule a reviewer should see (true positive), or `null` (false positive before calibration). */
  readonly rule: string | null;
}

const SAMPLE: readonly Labelled[] = [
  // find-delete
  { source: 'dracut-core modules.d/10i18n/module-setup.sh:149', text: 'find "${initdir}${kbddir}/" -name README\\* -delete', rule: 'find-delete' },
  { source: 'python3.11 config Makefile:2549 (as a script line)', text: "find . -name '*.s[ol]' -exec rm -f {} ';'", rule: null },
  { source: 'python3.10 config Makefile:1923', text: "find build -name '*.py' -exec rm -f {} ';' || true", rule: null },
  // rm-recursive-force
  { source: 'dracut-core modules.d/09console-setup/module-setup.sh:12', text: 'rm -rf $vardir/console-setup-dir', rule: 'rm-recursive-force' },
  { source: 'dracut-core modules.d/80lvmmerge/lvmmerge.sh:87', text: 'rm -fr /sysroot/restoredev', rule: 'rm-recursive-force' },
  { source: 'dracut-core modules.d/30convertfs/convertfs.sh:143', text: 'rm -fr -- "$ROOT/${dir}.usrmove-old" || :', rule: 'rm-recursive-force' },
  { source: 'live-build lib/live/build/installer_chroot:52', text: 'rm -rf chroot/chroot', rule: null },
  // Whole-word or relative-suffix variables (the sample of this calibration round, false before it)
  { source: 'xz-utils /usr/bin/xzdiff:173', text: 'rm -rf "$tmp" || xz_status=$?', rule: null },
  { source: 'git /usr/lib/git-core/git-mergetool:57', text: 'rm -rf -- "$MERGED.orig"', rule: null },
  { source: 'perf-core tests/shell/daemon.sh:188', text: 'rm -rf ${base}', rule: null },
  { source: 'dracut-core modules.d/30convertfs/convertfs.sh:94', text: 'rm -fr -- "${dir}.del~"', rule: null },
  { source: 'live-build lib/live/build/efi-image:39', text: '[ -z "$workdir" ] || rm -rf "$workdir"', rule: null },
  // ... and the true ones of the same round, still warnings
  { source: 'dpkg /usr/bin/dpkg-maintscript-helper:403', text: 'rm -rf "$DPKG_ROOT${PATHNAME}.dpkg-backup"', rule: 'rm-recursive-force' },
  { source: 'live-build examples/hooks/stripped.hook.chroot:39', text: 'rm -rf /usr/share/doc/*', rule: 'rm-recursive-force' },
  { source: 'libc-bin /usr/sbin/locale-gen:15', text: '[ "$KEEP" -eq 0 ] && rm -rf /usr/lib/locale/locale-archive || :', rule: 'rm-recursive-force' },
  { source: 'live-build lib/live/build/binary_rootfs:354', text: 'rm -rf chroot', rule: null },
  { source: 'gflags Makefile:28', text: 'rm -rf build-*', rule: null },
  // rm-recursive
  // Relabelled: empty, `${wineprefix}` gives no operand at all; not empty it is what the guarded
  // acceptable form `${wineprefix:?}` would remove. The guard the message suggested changes nothing.
  { source: 'perf-core tests/shell/buildid.sh:155', text: 'rm -r ${wineprefix}', rule: null },
  { source: 'dracut-core modules.d/90overlayfs/mount-overlayfs.sh:22', text: 'rm -r -- "${ovlfsdir:?}"/* "${ovlfsdir:?}"/.* > /dev/null 2>&1', rule: null },
  // rm-force
  { source: 'live-build functions/cache.sh:63', text: 'rm -f chroot/var/cache/apt/archives/*.deb', rule: null },
  { source: 'ucf examples test_20:5', text: 'rm -f $PKGF', rule: null },
  { source: 'python3.11 makesetup:349', text: 'rm -f $rulesf', rule: null },
  // path-dangerous-removal
  { source: 'pg_buildext:371', text: 'rm -rf $pattern/', rule: 'path-dangerous-removal' },
  { source: 'live-build lib/live/build/clean:135', text: 'rm -rf "${STAGEFILES_DIR}"/*', rule: 'path-dangerous-removal' },
  { source: 'dracut-core modules.d/01fips/fips.sh:52', text: 'rm -fr -- /boot', rule: 'path-dangerous-removal' },
  { source: 'dracut-core modules.d/99base/dracut-lib.sh:912', text: 'rm -f -- /.console_lock', rule: null },
  // git
  { source: 'git contrib/rerere-train.sh:91', text: 'git checkout -q $commit -- .', rule: 'git-checkout-discard' },
  { source: 'git contrib/rerere-train.sh:94', text: 'git reset -q --hard', rule: 'git-reset-hard' },
  { source: 'git-core git-filter-branch:427', text: 'git clean -d -q -f -x', rule: 'git-clean-force' },
  // new packs
  { source: 'live-build lib/live/build/binary_hdd:196', text: 'parted -s ${FREELO} mklabel ${PARTITION_TABLE_TYPE} || true', rule: 'disk-partition' },
  { source: 'dracut-core modules.d/99base/dracut-lib.sh:982', text: 'reboot || exit 1', rule: null },
];

describe('the labelled calibration sample (script profile)', () => {
  it.each(SAMPLE)('$source', async ({ text, rule }) => {
    const loud = (await lintText(text + '\n', 'script')).filter((d) => d.severity !== 'note' && d.ruleId !== 'parse-error');
    if (rule === null) expect(loud.map((d) => d.ruleId)).toEqual([]);
    else expect(loud.map((d) => d.ruleId)).toContain(rule);
  });
});
