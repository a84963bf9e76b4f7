# Copyright 2026 The pending-tempest-plugin Authors.
#
#    Licensed under the Apache License, Version 2.0 (the "License"); you may
#    not use this file except in compliance with the License. You may obtain
#    a copy of the License at
#
#         http://www.apache.org/licenses/LICENSE-2.0
#
#    Unless required by applicable law or agreed to in writing, software
#    distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
#    WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
#    License for the specific language governing permissions and limitations
#    under the License.
"""``pending-conformance``: init, run, merge, diff, bundle, verify, cleanup.

Exit status: 0 the verdict passed (or the command did what it was asked),
1 the verdict failed, 2 bad input or a cloud the suite cannot run on, with
one line saying what is wrong.
"""

import argparse
import datetime
import json
import os
import shutil
import sys
import types
import uuid

from pending_tempest_plugin.conformance import claims as claims_mod
from pending_tempest_plugin.conformance import suite
from pending_tempest_plugin.conformance import verdict as verdict_mod
from pending_tempest_plugin.runner import artifacts
from pending_tempest_plugin.runner import discovery
from pending_tempest_plugin.runner import leaks as leaks_mod
from pending_tempest_plugin.runner import phases
from pending_tempest_plugin.runner import report as report_mod
from pending_tempest_plugin.runner import workspace as ws

DEFAULT_REGEX = r'^pending_tempest_plugin\.tests\.'
SUPPORTED_TEMPEST = ('40.0.0', '48.0.0')   # [lowest, first unsupported)


def _tempest():
    """The tempest command of this virtualenv (it need not be on PATH)."""
    here = os.path.join(os.path.dirname(sys.executable), 'tempest')
    return here if os.access(here, os.X_OK) else 'tempest'


class UsageError(Exception):
    """Bad input: exit 2 with this message."""


def _now():
    return datetime.datetime.now(datetime.timezone.utc).strftime(
        '%Y-%m-%dT%H:%M:%SZ')


def _connect(cloud):
    import openstack
    from openstack import exceptions as sdk_exc

    try:
        conn = openstack.connect(cloud=cloud)
        conn.authorize()
    except sdk_exc.ConfigException as e:
        raise UsageError('clouds.yaml: %s' % e)
    except Exception as e:   # keystoneauth: unreachable, 401, bad CA...
        raise UsageError('cannot authenticate to cloud %r: %s' % (cloud, e))
    return conn


def _connect_conf(conf, where):
    """A connection as tempest.conf's admin (``[auth] admin_*``).

    For a workspace made ``--from-tempest-conf`` (devstack's, os_tempest's):
    the identity endpoint, region and CA of ``[identity]``.  UsageError
    names what is missing or why the cloud refused.
    """
    import openstack

    def get(section, key, default=''):
        return ws.conf_get(conf, section, key, default)

    missing = ['[%s] %s' % pair for pair in (
        ('identity', 'uri_v3'), ('auth', 'admin_username'),
        ('auth', 'admin_password'), ('auth', 'admin_project_name'))
        if not get(*pair)]
    if missing:
        raise UsageError('%s lacks %s: pending-conformance needs the '
                         "cloud's admin (for discovery, the leak check and "
                         "Tempest's dynamic credentials)"
                         % (where, ', '.join(missing)))
    if get('auth', 'admin_system'):
        raise UsageError('%s sets [auth] admin_system: pending-conformance '
                         'needs a project-scoped admin' % where)
    # As Tempest reads them: the user's and the project's domain fall back
    # on admin_domain_name; the region is the compute service's.
    domain = get('auth', 'admin_domain_name', 'Default')
    verify = get('identity', 'disable_ssl_certificate_validation',
                 'false').lower() not in ('true', '1', 'yes', 'on')
    cacert = ws.source_path(where, get('identity',
                                       'ca_certificates_file')) or None
    interface = {'publicURL': 'public', 'internalURL': 'internal',
                 'adminURL': 'admin'}.get(
        get('compute', 'endpoint_type', 'publicURL'), 'public')
    try:
        conn = openstack.connect(
            load_yaml_config=False, load_envvars=False,
            auth_url=get('identity', 'uri_v3'),
            username=get('auth', 'admin_username'),
            password=get('auth', 'admin_password'),
            project_name=get('auth', 'admin_project_name'),
            user_domain_name=get('auth', 'admin_user_domain_name') or domain,
            project_domain_name=(get('auth', 'admin_project_domain_name')
                                 or domain),
            region_name=(get('compute', 'region')
                         or get('identity', 'region') or 'RegionOne'),
            interface=interface,
            cacert=cacert, verify=verify if verify else False)
        conn.authorize()
    except Exception as e:   # keystoneauth: unreachable, 401, bad CA...
        raise UsageError('cannot authenticate as the admin of %s: %s'
                         % (where, e))
    return conn


def _connect_state(state, root):
    """A connection as the workspace was made: clouds.yaml or tempest.conf."""
    if state.get('cloud'):
        return _connect(state['cloud'])
    path = os.path.join(root, 'etc', 'tempest.conf')
    return _connect_conf(ws.read_conf(path), path)


def _account_connections(conn, accounts):
    """A connection as each account of the accounts file."""
    import openstack

    if not accounts:
        return []
    try:
        entries = ws.read_accounts(accounts)
    except ws.WorkspaceError as e:
        raise UsageError('the accounts file %s: %s' % (accounts, e))
    cloud = conn.config.config
    auth = cloud.get('auth') or {}
    out = []
    for entry in entries:
        try:
            account_conn = openstack.connect(
                load_yaml_config=False, load_envvars=False,
                auth_type='password', auth_url=auth.get('auth_url'),
                username=entry.get('username'),
                password=entry.get('password'),
                project_name=entry['project_name'],
                user_domain_name=entry.get('user_domain_name', 'Default'),
                project_domain_name=entry.get('project_domain_name',
                                              'Default'),
                region_name=cloud.get('region_name'),
                cacert=cloud.get('cacert'),
                verify=cloud.get('verify', True))
            account_conn.authorize()
        except Exception as e:   # keystoneauth: 401, unreachable...
            raise UsageError('cannot authenticate as account %s of %s: %s'
                             % (entry.get('username'), accounts, e))
        out.append(account_conn)
    return out


def _versions():
    return suite.versions()


def _version_line():
    """``pending-conformance 0.1.0 (git abc1234), tempest 41.0.0``."""
    versions = _versions()
    line = 'pending-conformance %s' % (versions.get('plugin_version')
                                       or '(not installed)')
    if versions.get('plugin_git_sha'):
        line += ' (git %s)' % versions['plugin_git_sha']
    return line + ', tempest %s' % (versions.get('tempest_version')
                                    or '(not installed)')


class _VersionAction(argparse.Action):
    """``--version``: the versions are read only when asked for."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0,
                         default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        print(_version_line())
        parser.exit()


def _tempest_supported(version):
    def key(v):
        return tuple(int(p) for p in str(v).split('.')[:3] if p.isdigit())
    low, high = SUPPORTED_TEMPEST
    return version and key(low) <= key(version) < key(high)


# --- init -----------------------------------------------------------------

def _create(conn, prefix):
    """A tiny community image and two flavors, named with the run's prefix.

    The image is not public: a community image is in no other user's image
    list, yet Tempest's test projects can boot it by its id (a private one
    they could not).  The flavors are public (nova's test users need them),
    and are deleted by ``cleanup`` with the image.
    """
    created = []
    image = conn.image.create_image(
        name='%s-image' % prefix, disk_format='raw', container_format='bare',
        visibility='community', data=b'\0' * 1024 * 1024)
    created.append({'kind': 'image', 'id': image.id, 'name': image.name})
    for i, (ram, disk) in enumerate(((128, 1), (192, 2))):
        flavor = conn.compute.create_flavor(
            name='%s-flavor%d' % (prefix, i), ram=ram, vcpus=1, disk=disk)
        created.append({'kind': 'flavor', 'id': flavor.id,
                        'name': flavor.name})
    return created


def _from_tempest_conf(path, args):
    """(source, claims) of ``init --from-tempest-conf PATH``.

    The claims are the claims file's, or else the file's own
    ``[nova_conformance]`` (what devstack's plugin writes).
    """
    try:
        source = ws.read_conf(path)
    except ws.WorkspaceError as e:
        raise UsageError(str(e))
    if args.claims:
        return source, claims_mod.load(args.claims)
    try:
        claims = claims_mod.of_conf(source, path)
    except ValueError as e:
        raise UsageError(str(e))
    problems = claims_mod.features.config_problems(
        types.SimpleNamespace(**claims))
    if problems:
        raise UsageError('%s: [nova_conformance]: %s'
                         % (path, '; '.join(problems)))
    return source, claims


def cmd_init(args):
    if bool(args.os_cloud) == bool(args.from_tempest_conf):
        raise UsageError('init needs --os-cloud (a cloud of clouds.yaml) or '
                         '--from-tempest-conf (an existing tempest.conf), '
                         'not both')
    source = None
    if args.from_tempest_conf:
        if args.accounts or args.create:
            raise UsageError('--from-tempest-conf takes the credentials of '
                             'the tempest.conf: no --accounts, no --create')
        source, claims = _from_tempest_conf(args.from_tempest_conf, args)
        # Its pre-provisioned accounts are checked and copied as
        # --accounts would be (the leak check and the scrub need them).
        if ws.conf_get(source, 'auth', 'use_dynamic_credentials',
                       'true').lower() in ('false', '0', 'no', 'off'):
            args.accounts = ws.source_path(
                args.from_tempest_conf,
                ws.conf_get(source, 'auth', 'test_accounts_file'))
            if not args.accounts:
                raise UsageError('%s: use_dynamic_credentials is false but '
                                 '[auth] test_accounts_file is not set'
                                 % args.from_tempest_conf)
    else:
        claims = claims_mod.load(args.claims)
    if args.overrides and source is not None:
        raise UsageError('--from-tempest-conf: put the overrides in the '
                         'tempest.conf itself')
    if args.overrides:   # a bad file stops init before the cloud is touched
        try:
            ws.apply_overrides(ws.empty_conf(), args.overrides)
        except ws.WorkspaceError as e:
            raise UsageError(str(e))
    if args.accounts:
        problems = ws.check_accounts(args.accounts)
        if problems:
            raise UsageError('--accounts %s: %s (doc: running, '
                             '"Pre-provisioned credentials")'
                             % (args.accounts, '; '.join(problems)))
    where = args.os_cloud or args.from_tempest_conf
    if source is not None:
        conn = _connect_conf(source, args.from_tempest_conf)
        # The tempest.conf's image and flavor, as its Tempest uses them.
        args.image = args.image or ws.conf_get(source, 'compute',
                                               'image_ref') or None
        args.flavor = args.flavor or ws.conf_get(source, 'compute',
                                                 'flavor_ref') or None
    else:
        conn = _connect(args.os_cloud)
    # A workspace keeps its prefix when init runs again (the embedded cloud
    # re-runs it at each claims change): what an earlier run of it left
    # behind, a trigger trait nova re-created for instance, is still its own
    # and is still found and swept.
    try:
        prefix = ws.load_state(os.path.abspath(args.workspace))['prefix']
    except (ws.WorkspaceError, KeyError):
        prefix = ws.new_prefix()
    created = []
    try:
        found = None
        if args.create:
            if not discovery.is_admin(conn):
                raise UsageError('--create needs admin on cloud %r'
                                 % where)
            created = _create(conn, prefix)
            found = discovery.discover(
                conn, image=created[0]['id'], flavor=created[1]['id'],
                profile_services=claims['host_status_profile_services'],
                quota_services=claims['quota_counting_services'])
            found['flavors'] = [created[1]['id'], created[2]['id']]
        else:
            found = discovery.discover(
                conn, image=args.image, flavor=args.flavor,
                profile_services=claims['host_status_profile_services'],
                quota_services=claims['quota_counting_services'])
    except discovery.DiscoveryError as e:
        raise UsageError('cloud %r: %s' % (where, e))
    finally:
        if created and found is None:
            _remove(conn, created)
    cloud_conf = conn.config.config
    admin_auth = None
    if source is not None:
        if not found['admin']:
            raise UsageError('the admin of %s has no admin role'
                             % args.from_tempest_conf)
    elif not args.accounts:
        if not found['admin']:
            raise UsageError(
                'the user of cloud %r has no admin role, so Tempest cannot '
                'create its test users: pass --accounts with pre-provisioned '
                'accounts (doc: running, "Pre-provisioned credentials")'
                % args.os_cloud)
        try:
            admin_auth = ws.credentials(cloud_conf.get('auth') or {},
                                        cloud_conf.get('auth_type'))
        except ws.WorkspaceError as e:
            raise UsageError(str(e))
    root = os.path.abspath(args.workspace)
    os.makedirs(root, exist_ok=True)
    ws.create(root)
    accounts = None
    if args.accounts:
        # A copy in the order Tempest's provider needs (mode 0600).
        import yaml

        accounts = os.path.join(root, 'etc', 'accounts.yaml')
        fd = os.open(accounts, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, 'w') as f:
            yaml.safe_dump(ws.ordered_accounts(
                ws.read_accounts(args.accounts)), f)
    if source is not None:
        # The cloud's own tempest.conf, with the runner's options and the
        # claims over it (ws.from_source).
        conf = ws.from_source(source, args.from_tempest_conf, root, claims,
                              prefix, accounts=accounts)
    else:
        conf = ws.tempest_conf(
            root, found, claims, prefix, admin_auth=admin_auth,
            accounts=accounts, cacert=cloud_conf.get('cacert'),
            verify=cloud_conf.get('verify', True) is not False)
    if args.overrides:
        try:
            ws.apply_overrides(conf, args.overrides)
        except ws.WorkspaceError as e:
            raise UsageError(str(e))
    path = os.path.join(root, 'etc', 'tempest.conf')
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, 'w') as f:
        f.write('# Written by pending-conformance init for %s at %s.\n'
                % ('cloud %s' % args.os_cloud if args.os_cloud else
                   'the cloud of %s' % os.path.abspath(
                       args.from_tempest_conf), _now()))
        f.write(ws.render(conf))
    os.chmod(path, 0o600)   # tempest init wrote it world-readable
    # The state file keeps the claims for people to read: never a secret.
    state = {'cloud': args.os_cloud, 'prefix': prefix,
             'from_tempest_conf': (os.path.abspath(args.from_tempest_conf)
                                   if source is not None else None),
             'claims': ws.redact_claims(claims),
             'found': found, 'created': created,
             'accounts': accounts, 'initialised': _now()}
    ws.save_state(root, state)
    low, high = found['microversions']['compute']
    print('pending-conformance: workspace %s for cloud %s (%s): compute '
          '%s-%s, services %s, image %s, flavors %s, prefix %s%s'
          % (root, where, found['cloud_id'], low, high,
             ','.join(found['services']), found['images'][0],
             ','.join(found['flavors']), prefix,
             ', created %d resource(s) (remove with cleanup)' % len(created)
             if created else ''))
    return 0


# --- run ------------------------------------------------------------------

def _secrets(conf_path, accounts):
    import configparser

    values = []
    parser = configparser.RawConfigParser(strict=False)
    parser.read(conf_path)
    for section in parser.sections():
        for key, value in parser.items(section):
            if ws.is_secret(key):
                values.append(value)
    if accounts and os.path.isfile(accounts):
        for account in ws.read_accounts(accounts):
            values.extend(str(account[k]) for k in account
                          if ws.is_secret(k) and account[k])
    return values


def read_report(path):
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise UsageError('cannot read report %s: %s' % (path, e))
    if not isinstance(data, dict) or not isinstance(
            data.get('header'), dict) or not isinstance(
            data.get('requirements'), list):
        raise UsageError('%s is not a report of pending-conformance (no '
                         'header or requirements)' % path)
    return data


def _attempt_files(out, header):
    """The subunit file of each attempt of the run whose report is in OUT."""
    attempts = header.get('attempts') or [
        {'subunit': verdict_mod.attempt_subunit(1)}]
    return [os.path.join(out, a['subunit']) for a in attempts]


def _records(path):
    try:
        with open(path, 'rb') as f:
            return verdict_mod.records_from_subunit(f)
    except OSError as e:
        raise UsageError('cannot read the subunit stream %s: %s' % (path, e))


def _rerun(args, root, state, versions):
    """(previous report, output folder, regex, earlier attempts' records).

    ``run --rerun-failed REPORT``: the same workspace and cloud, the same
    suite (unless --allow-mixed), the failed and not-run tests again.
    """
    path = os.path.abspath(args.rerun_failed)
    previous = read_report(path)
    out = os.path.dirname(path)
    if args.output and os.path.abspath(args.output) != out:
        raise UsageError('--rerun-failed writes into the folder of its '
                         'report (%s), not --output %s' % (out, args.output))
    if args.regex:
        raise UsageError('--rerun-failed selects the tests itself: no '
                         '--regex')
    header = previous['header']
    if header.get('cloud_id') != state['found']['cloud_id']:
        raise UsageError('%s is of cloud %s, the workspace of cloud %s' % (
            path, header.get('cloud_id'), state['found']['cloud_id']))
    now = {'header': dict(versions, catalogue_sha256=(
        report_mod.catalogue_identity()[1]))}
    why = verdict_mod.mixed([previous, now], [path, 'this suite'])
    if why and not args.allow_mixed:
        raise UsageError(why + ' (--allow-mixed reruns anyway)')
    # The rerun is judged as the run was: the same claims, credentials and
    # mode, or its records and the earlier ones would answer other
    # questions.
    claims, admin = report_mod.context_from_tempest_conf(
        os.path.join(root, 'etc', 'tempest.conf'))
    changed = [name for name, now, then in (
        ('claims', claims, header.get('claims')),
        ('admin', admin, header.get('admin')),
        ('credentials', 'pre-provisioned' if state.get('accounts')
         else 'dynamic', header.get('credentials')),
        ('mode', args.mode, header.get('mode'))) if now != then]
    if changed:
        raise UsageError('%s was run with other %s than this rerun would '
                         'be (the workspace\'s tempest.conf, --mode): a '
                         'rerun decides rows as its run did' % (
                             path, ', '.join(changed)))
    earlier = [_records(f) for f in _attempt_files(out, header)]
    combined, _ = verdict_mod.combine_attempts(earlier)
    regex, count = verdict_mod.rerun_selection(previous, combined)
    if not count:
        raise UsageError('%s has no failed or not-run test: nothing to '
                         'rerun' % path)
    first = ((header.get('attempts') or [{}])[0].get('regex')
             or header.get('regex'))
    if first:
        # Within what the run selected: a class whose fixture failed, or a
        # row not run, may have tests the run never selected.
        regex = '^(?=.*?(?:%s))(?=.*?(?:%s))' % (first, regex)
    print('pending-conformance: rerun %d of %s: %d failed or not-run '
          'test(s) or class(es)' % (len(earlier) + 1, path, count),
          flush=True)
    return previous, out, regex, earlier


def cmd_run(args):
    try:
        # A wrong weights file stops the run before anything else.
        weights = phases.all_weights(args.weights)
    except ValueError as e:
        raise UsageError(str(e))
    root = os.path.abspath(args.workspace)
    state = ws.load_state(root)
    conf_path = os.path.join(root, 'etc', 'tempest.conf')
    versions = _versions()
    previous, earlier = None, []
    if args.rerun_failed:
        previous, out, regex, earlier = _rerun(args, root, state, versions)
    else:
        out = os.path.abspath(args.output or os.path.join(root, 'results'))
        regex = args.regex or DEFAULT_REGEX
    os.makedirs(out, exist_ok=True)
    if not _tempest_supported(versions['tempest_version']):
        outside = ('Tempest %s is outside the supported range %s to below %s'
                   % ((versions['tempest_version'],) + SUPPORTED_TEMPEST))
        if args.mode == verdict_mod.CERTIFY:
            # A certificate names what it was made with: only a suite run
            # with a Tempest it supports can give one.
            raise UsageError('--mode certify: %s; install a supported '
                             'Tempest or run --mode explore' % outside)
        print('pending-conformance: warning: %s' % outside, file=sys.stderr)
    log = os.path.join(root, 'logs', 'tempest.log')
    if os.path.exists(log):
        os.replace(log, log + '.previous')
    started = _now()
    concurrency = args.concurrency
    accounts = state.get('accounts')
    if accounts and os.path.isfile(accounts):
        sets = ws.persona_sets(ws.read_accounts(accounts))
        if 0 < sets < concurrency:
            print('pending-conformance: --concurrency %d lowered to %d: the '
                  'accounts file has persona sets for %d test worker(s) '
                  '(per worker a member and a reader of one project, an '
                  'account of another and, in a run with admin, an admin '
                  'account of its own)' % (concurrency, sets, sets),
                  flush=True)
            concurrency = sets
    try:
        _rc, stream = phases.run(['--regex', regex], concurrency, cwd=root,
                                 tempest=_tempest(), weights=weights,
                                 serial_done=args.serial_done)
    except RuntimeError as e:
        raise UsageError(str(e))
    print(flush=True)
    ended = _now()
    number = len(earlier) + 1
    subunit = verdict_mod.attempt_subunit(number)
    os.makedirs(os.path.dirname(os.path.join(out, subunit)), exist_ok=True)
    with open(os.path.join(out, subunit), 'wb') as f:
        f.write(stream)
    records, origin = verdict_mod.combine_attempts(
        earlier + [_records(os.path.join(out, subunit))])
    attempt = {'attempt': number, 'subunit': subunit, 'regex': regex,
               'started': started, 'ended': ended,
               'command': getattr(args, 'argv', None)}
    claims, admin = report_mod.context_from_tempest_conf(conf_path)
    found = state['found']
    leaks = []
    try:
        conn = _connect_state(state, root)
        leaks = leaks_mod.find(conn, state['prefix'], found['admin'],
                               found['services'])
        if not found['admin']:
            # A member sees only its own project: look as every account.
            for account_conn in _account_connections(
                    conn, state.get('accounts')):
                leaks.extend(
                    leak for leak in leaks_mod.find(
                        account_conn, state['prefix'], False,
                        found['services'])
                    if leak not in leaks)
    except UsageError as e:
        leaks.append('the leak check could not run: %s' % e)
    if previous is not None:
        # What any attempt left counts, cleaned up since or not.
        leaks = list(previous['header'].get('leaks') or []) + [
            leak for leak in leaks
            if leak not in (previous['header'].get('leaks') or [])]
    result = report_mod.report(
        records, claims, admin, mode=args.mode, leaks=leaks,
        versions=dict(versions, suite_sha256=suite.digest(
            suite.installed_sums())),
        origin=origin if number > 1 else None)
    header = result['header']
    attempts = ((previous or {}).get('header', {}).get('attempts') or (
        [{'attempt': 1, 'subunit': verdict_mod.attempt_subunit(1),
          'regex': previous['header'].get('regex'),
          'started': previous['header'].get('started'),
          'ended': previous['header'].get('ended'),
          'command': previous['header'].get('command')}]
        if previous else [])) + [attempt]
    header.update({
        'cloud_id': found['cloud_id'], 'cloud_name': state['claims'].get(
            'name') or None, 'region': found.get('region'),
        'compute_microversions': found['microversions'].get('compute'),
        'started': attempts[0]['started'], 'ended': ended,
        'leg': args.leg or (previous or {}).get('header', {}).get('leg')
        or os.path.basename(out),
        'regex': attempts[0]['regex'],
        'run_id': (previous or {}).get('header', {}).get('run_id')
        or str(uuid.uuid4()),
        'command': attempts[0]['command'], 'attempts': attempts,
        'credentials': 'pre-provisioned' if state.get('accounts')
        else 'dynamic', 'leaks': leaks})
    text = report_mod.render(result['requirements'], result['totals'],
                             result['verdict'])
    with open(os.path.join(out, 'report.txt'), 'w') as f:
        f.write(text + '\n')
    with open(os.path.join(out, 'report.json'), 'w') as f:
        json.dump(result, f, indent=2)
    with open(os.path.join(out, 'results.xml'), 'w') as f:
        f.write(artifacts.junit(records))
    with open(os.path.join(out, 'results.html'), 'w') as f:
        f.write(artifacts.html_page(result, records))
    with open(conf_path) as f:
        redacted = ws.redact(f.read())
    with open(os.path.join(out, 'tempest.conf'), 'w') as f:
        f.write(redacted)
    # Each attempt's log beside its stream (the first's in OUT).
    attempt_log = os.path.join(out, os.path.dirname(subunit), 'tempest.log')
    if os.path.exists(log):
        shutil.copyfile(log, attempt_log)
    else:
        open(attempt_log, 'w').close()
    artifacts.scrub(out, _secrets(conf_path, state.get('accounts')))
    print(text)
    print('pending-conformance: artifacts in %s' % out)
    return result['exit_code']


# --- merge ----------------------------------------------------------------

def merge(reports, mode=None, names=None, allow_mixed=False):
    """One report over several legs of one cloud (verdict.merge)."""
    try:
        return verdict_mod.merge(reports, mode, names=names,
                                 allow_mixed=allow_mixed)
    except ValueError as e:
        raise UsageError(str(e))


def cmd_merge(args):
    reports = [read_report(path) for path in args.reports]
    result = merge(reports, args.mode, names=args.reports,
                   allow_mixed=args.allow_mixed)
    with open(args.output, 'w') as f:
        json.dump(result, f, indent=2)
    print(report_mod.render(result['requirements'], result['totals'],
                            result['verdict']))
    return result['exit_code']


# --- diff -----------------------------------------------------------------

# Header fields a diff leaves out: what differs between any two runs.
_RUN_FIELDS = ('started', 'ended', 'run_id', 'attempts', 'command')


def diff(a, b):
    """Lines of what differs from report ``a`` to report ``b``."""
    lines = []
    rows_a = {r['id']: r for r in a['requirements']}
    rows_b = {r['id']: r for r in b['requirements']}
    for rid in rows_a:
        if rid in rows_b and rows_a[rid]['outcome'] != rows_b[rid][
                'outcome']:
            lines.append('changed  %-8s %s -> %s' % (
                rid, rows_a[rid]['outcome'], rows_b[rid]['outcome']))
    lines += ['removed  %-8s (was %s)' % (rid, rows_a[rid]['outcome'])
              for rid in rows_a if rid not in rows_b]
    lines += ['added    %-8s %s' % (rid, rows_b[rid]['outcome'])
              for rid in rows_b if rid not in rows_a]
    rows = len(lines)
    scopes_a = {s['name']: s['status'] for s in a.get('scopes') or ()}
    scopes_b = {s['name']: s['status'] for s in b.get('scopes') or ()}
    for name in sorted(set(scopes_a) | set(scopes_b)):
        if scopes_a.get(name) != scopes_b.get(name):
            lines.append('scope    %-14s %s -> %s' % (
                name, scopes_a.get(name, '(none)'),
                scopes_b.get(name, '(none)')))
    head_a, head_b = a['header'], b['header']
    for key in sorted(set(head_a) | set(head_b)):
        if key not in _RUN_FIELDS and head_a.get(key) != head_b.get(key):
            lines.append('header   %s: %s -> %s' % (
                key, json.dumps(head_a.get(key), sort_keys=True),
                json.dumps(head_b.get(key), sort_keys=True)))
    return lines, rows


def cmd_diff(args):
    a, b = read_report(args.a), read_report(args.b)
    why = verdict_mod.mixed([a, b], [args.a, args.b])
    if why and not args.allow_mixed:
        raise UsageError(why + ' (--allow-mixed compares them anyway)')
    lines, rows = diff(a, b)
    print('pending-conformance diff %s -> %s: %d row(s) changed, added or '
          'removed' % (args.a, args.b, rows))
    for line in lines:
        print(line)
    return 1 if rows else 0


# --- bundle, verify --------------------------------------------------------

def cmd_bundle(args):
    from pending_tempest_plugin.runner import bundle

    try:
        path = bundle.make(os.path.abspath(args.workspace), args.product,
                           args.sign_key, output=args.output,
                           results=args.results, argv=args.argv)
    except bundle.BundleError as e:
        raise UsageError(str(e))
    print('pending-conformance: bundle %s' % path)
    return 0


def cmd_verify(args):
    from pending_tempest_plugin.runner import bundle

    try:
        lines = bundle.verify(args.bundle, args.allowed_signers,
                              args.suite_hashes, principal=args.principal)
    except bundle.BundleError as e:
        print('pending-conformance verify: REFUSED: %s' % e,
              file=sys.stderr)
        return 1
    for line in lines:
        print(line)
    return 0


# --- cleanup --------------------------------------------------------------

def _remove(conn, created):
    left = []
    for res in reversed(created):
        try:
            if res['kind'] == 'image':
                conn.image.delete_image(res['id'], ignore_missing=True)
            elif res['kind'] == 'flavor':
                conn.compute.delete_flavor(res['id'], ignore_missing=True)
        except Exception as e:
            left.append('%s %s: %s' % (res['kind'], res['id'], e))
    return left


def cmd_cleanup(args):
    root = os.path.abspath(args.workspace)
    state = ws.load_state(root)
    created = state.get('created') or []
    if not created:
        print('pending-conformance: init created nothing in %s' % root)
        return 0
    left = _remove(_connect_state(state, root), created)
    if left:
        print('pending-conformance: could not remove: %s' % '; '.join(left),
              file=sys.stderr)
        return 1
    state['created'] = []
    ws.save_state(root, state)
    print('pending-conformance: removed %d resource(s) init created'
          % len(created))
    return 0


def parser():
    p = argparse.ArgumentParser(
        prog='pending-conformance',
        description='Conformance of a cloud to the Nova PENDING state, '
                    'host_status and cell0 rebuild specs.')
    p.add_argument('--version', action=_VersionAction,
                   help="print the plugin's version (and its git commit) "
                        "and Tempest's, then exit")
    sub = p.add_subparsers(dest='command', required=True)
    init = sub.add_parser('init', help='write a Tempest workspace for a '
                                       'cloud of clouds.yaml, or from an '
                                       'existing tempest.conf')
    init.add_argument('--os-cloud',
                      help='the cloud entry of clouds.yaml')
    init.add_argument('--from-tempest-conf', metavar='FILE',
                      help="start from an existing tempest.conf "
                           "(devstack's, os_tempest's) instead of "
                           "clouds.yaml: its admin credentials, endpoints "
                           "and options, with the runner's own options "
                           "and the claims over them (--claims, or else "
                           "its [nova_conformance])")
    init.add_argument('--workspace', required=True)
    init.add_argument('--claims', help='YAML: what the cloud implements '
                                       '([nova_conformance] keys)')
    init.add_argument('--accounts', help="Tempest's accounts.yaml "
                                         '(pre-provisioned credentials)')
    init.add_argument('--create', action='store_true',
                      help='create a tiny image and two flavors (admin); '
                           'cleanup removes them')
    init.add_argument('--overrides', help='a tempest.conf fragment merged '
                      'over what discovery found (the virt driver\'s '
                      'features, timeouts...); no [nova_conformance], no '
                      'credentials')
    init.add_argument('--image', help='image name or id to use')
    init.add_argument('--flavor', help='flavor name or id to use')
    run = sub.add_parser('run', help='run the suite; write artifacts and '
                                     'the verdict')
    run.add_argument('--workspace', required=True)
    run.add_argument('--mode', choices=verdict_mod.MODES,
                     default=verdict_mod.CERTIFY)
    run.add_argument('--regex', help='tests to run (default: the whole '
                                     'suite, %s)' % DEFAULT_REGEX)
    run.add_argument('--output', help='artifacts folder (default: '
                                      'WORKSPACE/results)')
    run.add_argument('--leg', help='name of this run in a merged report '
                                   '(default: the output folder name)')
    run.add_argument('--concurrency', type=int, default=2)
    run.add_argument('--rerun-failed', metavar='REPORT',
                     help='run again the failed and not-run tests of the '
                          'run whose report.json this is, into its folder: '
                          'the report keeps every attempt')
    run.add_argument('--allow-mixed', action='store_true',
                     help='with --rerun-failed: a report of another '
                          'catalogue or plugin version')
    run.add_argument('--weights', action='append', default=[],
                     metavar='FILE',
                     help='class weights (YAML: class id to seconds) over '
                          'the suite\'s own, for the parallel phase\'s '
                          'split: what the classes take on this cloud or '
                          'in this configuration; repeatable')
    run.add_argument('--serial-done', metavar='FILE',
                     help='create FILE once no serial class (one that '
                          'disables, forces down or stops a compute) runs '
                          'any more: runs of other legs on the same cloud '
                          'may start then, beside this run\'s parallel '
                          'phase')
    merge_p = sub.add_parser('merge', help='one report over several runs '
                                           'of one cloud')
    merge_p.add_argument('--output', required=True)
    merge_p.add_argument('--mode', choices=verdict_mod.MODES,
                         default=verdict_mod.EXPLORE,
                         help='certify: an applicable MUST no leg verified, '
                              'or a leak in any leg, fails the merged '
                              'verdict')
    merge_p.add_argument('--allow-mixed', action='store_true',
                         help='merge reports of different catalogues or '
                              'plugin versions (refused otherwise)')
    merge_p.add_argument('reports', nargs='+')
    diff_p = sub.add_parser('diff', help='what changed from report A to '
                                         'report B (exit 1 if a row did)')
    diff_p.add_argument('--allow-mixed', action='store_true',
                        help='compare reports of different catalogues or '
                             'plugin versions (refused otherwise)')
    diff_p.add_argument('a', metavar='A')
    diff_p.add_argument('b', metavar='B')
    bundle_p = sub.add_parser(
        'bundle', help='one signed archive of a run, for a certificate')
    bundle_p.add_argument('--workspace', required=True)
    bundle_p.add_argument('--results', help='the run\'s artifacts folder '
                                            '(default: WORKSPACE/results)')
    bundle_p.add_argument('--product', required=True, metavar='YAML',
                          help='vendor, product, version, cloud and region')
    bundle_p.add_argument('--sign-key', required=True, metavar='KEY',
                          help='the OpenSSH private key that signs the '
                               'manifest (ssh-keygen -Y sign)')
    bundle_p.add_argument('--output', help='the archive (default: '
                                           'WORKSPACE/bundle.tar.gz)')
    verify_p = sub.add_parser(
        'verify', help='check a bundle: signature, hashes, verdict, suite')
    verify_p.add_argument('bundle')
    verify_p.add_argument('--allowed-signers', required=True, metavar='FILE',
                          help="OpenSSH allowed_signers: the vendor's "
                               'published key')
    verify_p.add_argument('--suite-hashes', required=True, metavar='FILE',
                          help="the release's SUITE-SHA256SUMS")
    verify_p.add_argument('--principal', metavar='NAME',
                          help='the signer allowed_signers must name (the '
                               "vendor's principal; default: any of the "
                               'file)')
    cleanup = sub.add_parser('cleanup', help='remove what init --create '
                                             'made')
    cleanup.add_argument('--workspace', required=True)
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    args.argv = ['pending-conformance'] + list(
        sys.argv[1:] if argv is None else argv)
    command = {'init': cmd_init, 'run': cmd_run, 'merge': cmd_merge,
               'diff': cmd_diff, 'bundle': cmd_bundle, 'verify': cmd_verify,
               'cleanup': cmd_cleanup}[args.command]
    try:
        return command(args)
    except (UsageError, claims_mod.ClaimsError, ws.WorkspaceError,
            report_mod.BadInput) as e:
        print('pending-conformance %s: %s' % (args.command, e),
              file=sys.stderr)
        return 2


if __name__ == '__main__':
    sys.exit(main())
