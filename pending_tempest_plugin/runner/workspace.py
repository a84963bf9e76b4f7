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
"""The Tempest workspace ``init`` writes, and the state it keeps there.

``DIR/etc/tempest.conf`` is written whole from what discovery read, the
clouds.yaml entry's credentials and the claims; ``DIR/pending-conformance.
json`` keeps what ``run``, ``cleanup`` and the report need (the cloud's
identity, the claims, the run's name prefix, what ``--create`` made).
"""

import configparser
import io
import json
import os
import secrets

STATE = 'pending-conformance.json'

# Options whose values never reach an artifact: Tempest's and ours.
SECRET_OPTIONS = frozenset([
    'admin_password', 'password', 'alt_password', 'secret',
    'application_credential_secret', 'transport_url', 'token',
    'connection', 'change_password'])
# Any option whose name ends so is secret too.
# Options init writes that overrides may not change.
RUNNER_OPTIONS = frozenset([
    ('DEFAULT', 'resource_name_prefix'), ('DEFAULT', 'log_dir'),
    ('DEFAULT', 'log_file'), ('oslo_concurrency', 'lock_path')])
SECRET_SUFFIXES = ('_password', '_secret', '_token', '_key')


class WorkspaceError(Exception):
    """The workspace cannot be written or read; the message says why."""


def create(root):
    """The folders and .stestr.conf of a Tempest workspace at ``root``.

    What ``tempest init`` writes, without its global workspace registry and
    its lock under /tmp (another user's lock there made it fail).
    """
    import tempest

    for name in ('etc', 'logs', 'lock'):
        os.makedirs(os.path.join(root, name), exist_ok=True)
    top = os.path.dirname(os.path.abspath(tempest.__file__))
    with open(os.path.join(root, '.stestr.conf'), 'w') as f:
        f.write('[DEFAULT]\ntest_path=%s\ntop_dir=%s\n'
                'group_regex=([^\\.]*\\.)*\n'
                % (os.path.join(top, 'test_discover'), top))


def _roles(entry):
    return set(entry.get('roles') or [])


def is_admin_account(entry):
    return 'admin' in _roles(entry) or 'admin' in (entry.get('types') or [])


def read_accounts(path):
    """The entries of a Tempest accounts file; WorkspaceError if unusable.

    Per test worker the suite needs a member and a reader (two accounts) of
    one project (owner_member, owner_reader) and an account of another
    project (other_project); admin is optional (without it the admin
    requirements read ``needs admin``).
    """
    import yaml

    try:
        with open(path) as f:
            entries = yaml.safe_load(f)
    except OSError as e:
        raise WorkspaceError('cannot read it: %s' % e)
    except yaml.YAMLError as e:
        raise WorkspaceError('it is not YAML: %s' % e)
    if not isinstance(entries, list) or not entries:
        raise WorkspaceError('expected a list of accounts (username, '
                             'password, project_name, roles)')
    problems = []
    for n, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            problems.append('entry %d is not a mapping' % n)
            continue
        missing = [k for k in ('username', 'password', 'project_name')
                   if not entry.get(k)]
        if missing:
            problems.append('entry %d lacks %s' % (n, ', '.join(missing)))
        # Tempest iterates them: "roles: admin" would be the roles a, d,
        # m, i and n, and the account no admin.
        for key in ('roles', 'types'):
            value = entry.get(key)
            if value is not None and (
                    not isinstance(value, list)
                    or not all(isinstance(v, str) for v in value)):
                problems.append('entry %d: %s must be a list of names, '
                                'e.g. %s: [%s], not %r'
                                % (n, key, key, 'member' if key == 'roles'
                                   else 'admin', value))
    if problems:
        raise WorkspaceError('; '.join(problems))
    return entries


def lock_key(entry):
    """The account as Tempest locks it (:data:`LOCK_FIELDS`)."""
    return tuple(sorted((k, str(v)) for k, v in entry.items()
                        if k in LOCK_FIELDS))


def merged_accounts(entries):
    """One entry per account, as Tempest's provider sees the file.

    Entries with the same :func:`lock_key` are one account whose roles and
    types are all of theirs (Tempest hashes them together: listed once as
    member and once as admin, it is an admin account).
    """
    merged = {}
    for entry in entries:
        one = merged.setdefault(lock_key(entry), dict(entry, roles=[],
                                                      types=[]))
        for key in ('roles', 'types'):
            one[key] = sorted(set(one[key]) | set(entry.get(key) or []))
    return list(merged.values())


def _owner_projects(entries):
    """Projects with a member account and another, reader, account."""
    entries = merged_accounts(entries)
    owners = set()
    for project in {e['project_name'] for e in entries}:
        users = [e for e in entries
                 if e['project_name'] == project and not is_admin_account(e)]
        members = [e for e in users if 'member' in _roles(e)]
        readers = [e for e in users if 'reader' in _roles(e)]
        if any(m is not r for m in members for r in readers):
            owners.add(project)
    return owners


def check_accounts(path):
    """Problems of a Tempest accounts file for the suite's personas.

    Returns a list of sentences, empty when usable (read_accounts).
    """
    try:
        entries = merged_accounts(read_accounts(path))
    except WorkspaceError as e:
        return [str(e)]
    owners = _owner_projects(entries)
    if not owners:
        return ['no project has a member account and another, reader, '
                'account (personas owner_member and owner_reader)']
    if not [e for e in entries
            if not is_admin_account(e) and e['project_name'] not in owners]:
        return ['no non-admin account in a project other than the owner '
                'projects %s (persona other_project)'
                % ', '.join(sorted(owners))]
    return []


# The fields of an accounts entry Tempest's pre-provisioned provider locks
# an account by (PreProvisionedCredentialProvider.HASH_CRED_FIELDS: the
# credential fields Keystone v2 and v3 share; domains are not among them).
LOCK_FIELDS = frozenset(('username', 'password', 'project_name',
                         'tenant_name', 'user_id', 'project_id', 'tenant_id'))


def admin_accounts(entries):
    """How many admin accounts Tempest can lock at once from the file.

    Entries with the same credential fields (:data:`LOCK_FIELDS`) are one
    lock, whatever else they say (domains, roles, types).
    """
    return len([e for e in merged_accounts(entries) if is_admin_account(e)])


def persona_sets(entries):
    """How many test workers the accounts can serve at once.

    A running test class holds the accounts of its personas until it
    ends: at most an owner_member, an owner_reader (a member and a reader
    of one project) and an other_project (an account of another project),
    and, when the file has admin accounts, one of them too (the count
    assumes every class holds all of them).  Tempest's pre-provisioned
    provider locks every account it hands out, and a class that finds none
    free fails in setUpClass ("Insufficient number of users provided").
    Accounts are counted as :func:`merged_accounts` makes them.
    """
    entries = merged_accounts(entries)
    owners = _owner_projects(entries)
    others = [e for e in entries
              if not is_admin_account(e) and e['project_name'] not in owners]
    sets = min(len(owners), len(others))
    admins = admin_accounts(entries)
    return min(sets, admins) if admins else sets


def ordered_accounts(entries):
    """The accounts in the order Tempest's provider needs.

    Tempest's pre-provisioned ``alt`` is the first free non-admin account
    in file order, while ``primary`` is chosen by role coverage: the
    accounts of the other projects come first, so that ``alt`` never takes
    the member or reader another worker's owner project needs.
    """
    owners = _owner_projects(entries)

    def rank(entry):
        if is_admin_account(entry):
            return 2
        return 1 if entry['project_name'] in owners else 0
    return sorted(entries, key=rank)


def new_prefix():
    """A resource name prefix unique to one workspace, e.g. pcf3f9a0c1d."""
    return 'pcf' + secrets.token_hex(4)


def credentials(auth, auth_type):
    """[auth] admin_* options from a clouds.yaml entry's auth, or an error.

    Tempest's dynamic credentials need a user name and password with the
    admin role; an application credential or a token cannot create users.
    """
    if auth_type not in (None, '', 'password', 'v3password'):
        raise WorkspaceError(
            'the cloud authenticates with %s: Tempest can create its test '
            'users only with a password; pass --accounts with '
            'pre-provisioned accounts instead' % auth_type)
    missing = [k for k in ('username', 'password') if not auth.get(k)]
    if missing:
        raise WorkspaceError('the clouds.yaml entry lacks %s'
                             % ', '.join(missing))
    return {
        'admin_username': auth['username'],
        'admin_password': auth['password'],
        'admin_project_name': auth.get('project_name') or '',
        'admin_domain_name': (auth.get('user_domain_name')
                              or auth.get('domain_name') or 'Default'),
        'admin_project_domain_name': (auth.get('project_domain_name')
                                      or auth.get('domain_name')
                                      or 'Default'),
    }


def empty_conf():
    """A ConfigParser that keeps the case of option names."""
    conf = configparser.RawConfigParser()
    conf.optionxform = str
    return conf


def tempest_conf(workspace, found, claims, prefix, admin_auth=None,
                 accounts=None, cacert=None, verify=True):
    """The whole tempest.conf as a ConfigParser."""
    from pending_tempest_plugin.conformance import claims as claims_mod

    conf = empty_conf()

    def section(name, **values):
        conf.add_section(name)
        for key, value in values.items():
            if value is None:
                continue
            if isinstance(value, bool):
                value = 'true' if value else 'false'
            conf.set(name, key, str(value))

    region = found.get('region') or ''
    conf.set('DEFAULT', 'log_dir', os.path.join(workspace, 'logs'))
    conf.set('DEFAULT', 'log_file', 'tempest.log')
    conf.set('DEFAULT', 'use_stderr', 'false')
    conf.set('DEFAULT', 'resource_name_prefix', prefix)
    auth = {'tempest_roles': 'member'}
    if accounts:
        auth.update(use_dynamic_credentials=False,
                    test_accounts_file=os.path.abspath(accounts))
    else:
        auth.update(use_dynamic_credentials=True,
                    create_isolated_networks='neutron' in found['services'],
                    **(admin_auth or {}))
    section('auth', **auth)
    section('identity', uri_v3=found['auth_url'].rstrip('/') + (
        '' if found['auth_url'].rstrip('/').endswith('/v3') else '/v3'),
        auth_version='v3', region=region,
        ca_certificates_file=cacert,
        disable_ssl_certificate_validation=not verify)
    section('identity-feature-enabled', api_v2=False)
    low, high = found['microversions']['compute']
    hosts = found.get('compute_hosts') or []
    section('compute', image_ref=found['images'][0],
            image_ref_alt=found['images'][1],
            flavor_ref=found['flavors'][0],
            flavor_ref_alt=found['flavors'][1],
            min_microversion=low, max_microversion=high, region=region,
            min_compute_nodes=max(1, len(hosts)))
    if 'neutron' in found['services']:
        section('network', region=region,
                public_network_id=found.get('public_network_id'))
        section('network-feature-enabled', api_extensions=','.join(
            found.get('network_extensions') or []) or None)
    if 'cinder' in found['services']:
        low, high = found['microversions'].get('volume', (None, None))
        section('volume', region=region, catalog_type=found['volume_type'],
                min_microversion=low, max_microversion=high)
    if 'placement' in found['services']:
        section('placement', region=region)
    section('image', region=region)
    section('validation', run_validation=False)
    section('service_available', **{
        name: name in found['services']
        for name in ('nova', 'glance', 'neutron', 'cinder', 'placement',
                     'swift')})
    section('oslo_concurrency', lock_path=os.path.join(workspace, 'lock'))
    section('nova_conformance',
            **dict(claims_mod.nova_conformance_options(claims)))
    return conf


def _read_ini(path, strict, unreadable, malformed):
    """An INI file as a ConfigParser, or WorkspaceError.

    Option case kept; ``[DEFAULT]`` an ordinary section, as oslo.config
    reads it: none of its options is inherited by the other sections.
    ``unreadable`` and ``malformed`` are the messages (``%s`` the path,
    then the error).
    """
    conf = configparser.RawConfigParser(strict=strict,
                                        default_section='\0none')
    conf.optionxform = str
    try:
        with open(path) as f:
            conf.read_file(f)
    except OSError as e:
        raise WorkspaceError(unreadable % (path, e))
    except configparser.Error as e:
        raise WorkspaceError(malformed % (path, e))
    return conf


def read_conf(path):
    """A tempest.conf as a ConfigParser (``_read_ini``), or an error."""
    return _read_ini(path, False, 'cannot read the tempest.conf %s: %s',
                     '%s is not a tempest.conf: %s')


def conf_get(conf, section, key, default=''):
    if conf.has_option(section, key):
        return conf.get(section, key).strip()
    return default


def source_path(source_conf, value):
    """A path given in a tempest.conf, made absolute.

    A relative one is relative to Tempest's directory (the one holding
    ``etc/``), where Tempest runs from.
    """
    if not value or os.path.isabs(value):
        return value
    base = os.path.dirname(os.path.dirname(os.path.abspath(source_conf)))
    return os.path.join(base, value)


def from_source(source, source_conf, workspace, claims, prefix,
                accounts=None):
    """An existing tempest.conf with the runner's options over it.

    What the cloud's deployment tool wrote (devstack's, os_tempest's
    tempest.conf: credentials, endpoints, features, timeouts) is kept,
    its relative paths made absolute (``source_path``); the runner owns
    RUNNER_OPTIONS (the leak check finds what the run created by its
    prefix; the artifacts take its log), ``[nova_conformance]``, written
    from the claims, and the accounts file (``accounts``: the copy init
    made of the source's ``[auth] test_accounts_file``).
    """
    from pending_tempest_plugin.conformance import claims as claims_mod

    conf = empty_conf()
    for section in source.sections():
        if section == 'nova_conformance':
            continue
        if section != 'DEFAULT':
            conf.add_section(section)
        for key, value in source.items(section):
            conf.set(section, key, value)
    for section, key in (('identity', 'ca_certificates_file'),
                         ('auth', 'test_accounts_file')):
        if conf.has_option(section, key):
            conf.set(section, key, source_path(
                source_conf, conf.get(section, key).strip()))
    if accounts:
        conf.set('auth', 'test_accounts_file', os.path.abspath(accounts))
    conf.set('DEFAULT', 'log_dir', os.path.join(workspace, 'logs'))
    conf.set('DEFAULT', 'log_file', 'tempest.log')
    conf.set('DEFAULT', 'use_stderr', 'false')
    conf.set('DEFAULT', 'resource_name_prefix', prefix)
    if not conf.has_section('oslo_concurrency'):
        conf.add_section('oslo_concurrency')
    conf.set('oslo_concurrency', 'lock_path', os.path.join(workspace, 'lock'))
    conf.add_section('nova_conformance')
    for key, value in claims_mod.nova_conformance_options(claims):
        conf.set('nova_conformance', key, str(value))
    return conf


def apply_overrides(conf, path):
    """Merge a tempest.conf fragment over the discovered configuration.

    For what no API says (the virt driver's features, the volume backend,
    timeouts): any section and option except ``[nova_conformance]``, whose
    only source is the claims file, and the credentials, whose only source
    is clouds.yaml or the accounts file.  WorkspaceError names a bad file.
    """
    # No DEFAULT section semantics: RawConfigParser would copy [DEFAULT]
    # into every section.
    extra = _read_ini(path, True, 'cannot read the overrides %s: %s',
                      'the overrides %s are not a tempest.conf fragment: '
                      '%s')
    for section in extra.sections():
        if section == 'nova_conformance':
            raise WorkspaceError(
                'the overrides %s set [nova_conformance]: claims come only '
                'from the claims file' % path)
        for key, value in extra.items(section):
            if (section, key) in RUNNER_OPTIONS:
                raise WorkspaceError(
                    'the overrides %s set [%s] %s, which init owns (the '
                    'leak check and the artifacts depend on it)'
                    % (path, section, key))
            if section == 'auth' and (is_secret(key) or key.endswith(
                    ('_username', '_project_name', '_domain_name'))
                    or key in ('use_dynamic_credentials',
                               'test_accounts_file')):
                raise WorkspaceError(
                    'the overrides %s set [auth] %s: credentials come only '
                    'from clouds.yaml or --accounts' % (path, key))
            if section != 'DEFAULT' and not conf.has_section(section):
                conf.add_section(section)
            conf.set(section, key, value)
    return conf


def render(conf):
    """tempest.conf text."""
    out = io.StringIO()
    conf.write(out)
    return out.getvalue()


def _secret_plugin_options():
    """The options of [nova_conformance] registered ``secret=True``."""
    from pending_tempest_plugin import config as project_config

    return frozenset(opt.dest for opt in project_config.NovaConformanceGroup
                     if opt.secret)


def is_secret(option):
    option = option.lower()
    return (option in SECRET_OPTIONS or option.endswith(SECRET_SUFFIXES)
            or option in _secret_plugin_options())


def redact_claims(claims):
    """The claims with the value of every secret option as ***."""
    return {key: '***' if value and is_secret(key) else value
            for key, value in claims.items()}


def redact(text):
    """An ini file's text with the value of every secret option as ***."""
    lines = []
    for line in text.splitlines(True):
        key, sep, _ = line.partition('=')
        if (sep and not line.lstrip().startswith(('#', ';', '['))
                and is_secret(key.strip())):
            line = '%s = ***\n' % key.strip()
        lines.append(line)
    return ''.join(lines)


def save_state(workspace, state):
    path = os.path.join(workspace, STATE)
    with open(path + '.tmp', 'w') as f:
        json.dump(state, f, indent=2, sort_keys=True)
    os.replace(path + '.tmp', path)


def load_state(workspace):
    path = os.path.join(workspace, STATE)
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        raise WorkspaceError('%s is not a workspace of pending-conformance '
                             'init (no %s)' % (workspace, STATE))
    except (OSError, ValueError) as e:
        raise WorkspaceError('cannot read %s: %s' % (path, e))
