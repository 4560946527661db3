/**
 * The built-in packs (rules/packs/*.json), in priority order: when two packs' rules match one
 * command with the same severity, the earlier pack's rule is the finding and the others are its
 * related rules. Listed by hand (no directory scanning), like the checks.
 */
import git from '../../rules/packs/git.json' with { type: 'json' };
import files from '../../rules/packs/files.json' with { type: 'json' };
import disk from '../../rules/packs/disk.json' with { type: 'json' };
import permissions from '../../rules/packs/permissions.json' with { type: 'json' };
import system from '../../rules/packs/system.json' with { type: 'json' };
import remoteCode from '../../rules/packs/remote-code.json' with { type: 'json' };
import secrets from '../../rules/packs/secrets.json' with { type: 'json' };
import containers from '../../rules/packs/containers.json' with { type: 'json' };
import kubernetes from '../../rules/packs/kubernetes.json' with { type: 'json' };
import cloud from '../../rules/packs/cloud.json' with { type: 'json' };
import iac from '../../rules/packs/iac.json' with { type: 'json' };
import github from '../../rules/packs/github.json' with { type: 'json' };
import databases from '../../rules/packs/databases.json' with { type: 'json' };
import remote from '../../rules/packs/remote.json' with { type: 'json' };
import backup from '../../rules/packs/backup.json' with { type: 'json' };
import messaging from '../../rules/packs/messaging.json' with { type: 'json' };
import secretStores from '../../rules/packs/secret-stores.json' with { type: 'json' };
import httpApi from '../../rules/packs/http-api.json' with { type: 'json' };
import services from '../../rules/packs/services.json' with { type: 'json' };
import dns from '../../rules/packs/dns.json' with { type: 'json' };
import cicd from '../../rules/packs/cicd.json' with { type: 'json' };
import packages from '../../rules/packs/packages.json' with { type: 'json' };
import forkBomb from '../../rules/packs/fork-bomb.json' with { type: 'json' };

/** The pack files' contents, unvalidated here (test/rules-data.test.ts validates them against the schema). */
export const BUILTIN_PACK_DATA: readonly unknown[] = [remoteCode, secrets, disk, permissions, git, files, system, containers, kubernetes, cloud, iac, github, databases, remote, backup, messaging, secretStores, httpApi, services, dns, cicd, packages, forkBomb];
