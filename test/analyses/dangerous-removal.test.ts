import { describe, expect, it } from 'vitest';
import { dangerousRemovals } from '../../src/analyses/dangerous-removal.js';
import { parse } from '../helpers.js';

async function kinds(src: string): Promise<string[]> {
  const p = await parse(src);
  return p.commands.flatMap((c) => dangerousRemovals(c).map((d) => `${d.kind}:${d.path}`));
}

describe('dangerous removals', () => {
  it.each([
    ['rm -rf /', 'root:/'],
    ['rm -rf //', 'root://'],
    ['rm -rf /usr/..', 'root:/usr/..'],
    ['rm -rf ~', 'home:~'],
    ['rm -rf ~/', 'home:~/'],
    ['rm -rf $HOME', 'home:~'],
    ['rm -rf "${HOME}/"', 'home:~/'],
    ['rm -rf /*', 'glob-all:/*'],
    ['rm -rf ~/*', 'glob-all:~/*'],
    ['rm -rf /etc/', 'root-child:/etc/'],
    ['rmdir /tmp', 'root-child:/tmp'],
    ['rm /usr/*', 'glob-all:/usr/*'],
    ['rm -rf *', 'glob-all:*'],
    ['rm -rf "$dir/"', 'empty-variable:/'],
    ['rm -rf "$dir"/*', 'empty-variable:/*'],
    ['rm -r $a/$b', 'empty-variable:/'],
    ['rm -rf "$prefix/usr"', 'empty-variable:/usr'],
    ['sudo -u root rm -rf -- /', 'root:/'],
    ['rm -rf /$X', 'empty-variable:/'],
    ['rm -rf /usr/$PKG', 'empty-variable:/usr/'],
  ])('%s → %s', async (src, expected) => {
    expect(await kinds(src)).toEqual([expected]);
  });

  it.each([
    'rm -rf ./build',
    'rm -rf build/*',
    'rm -rf ~/tmp/cache',
    'rm -rf "${dir:?}/"',
    'rm -rf "${dir:-/tmp/x}/"',
    'rm -r "$dir/build"',
    'rm -rf build/$X',
    'rm -rf /opt/app/$X',
    'rm "$dir/"',
    'rm -rf "$dir"',
    'rm -rf /usr/local/lib/app',
    'echo rm -rf /',
    'ls /',
  ])('no finding for %s', async (src) => {
    expect(await kinds(src)).toEqual([]);
  });
});
