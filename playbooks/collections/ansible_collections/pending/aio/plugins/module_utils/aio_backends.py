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
"""The services' backends: MariaDB, Open vSwitch, RabbitMQ (stdlib only).

The logic of the modules ``mariadb_users``, ``ovs_external_ids``,
``rabbitmq_user``, ``rabbitmq_vhosts`` and ``rabbitmq_policies``: each
function reads the current state, writes only what differs and returns
``(changed, details)``.  With ``check`` it reads (RabbitMQ: only on a cache
miss) and writes nothing.

A password reaches its program on standard input only, never in an argv:
mysql reads it inside the SQL, rabbitmqctl's ``add_user`` and
``change_password`` read it there when the command line has none.  A
failure raises :class:`BackendError`, whose text never holds a password.
"""

import json
import os
import re
import subprocess

from ansible_collections.pending.aio.plugins.module_utils import aio_cache

# Names that go into SQL or a command unquoted.
_SQL_NAME = re.compile(r'^[A-Za-z0-9_]+$')
_OVS_KEY = re.compile(r'^[A-Za-z0-9_.-]+$')
MASK = '********'


class BackendError(Exception):
    """A backend command failed (its text holds no secret)."""


def _run(argv, what, data=None, env=None, secret=None):
    """stdout of ``argv`` (``data`` on its stdin); BackendError on failure.

    ``secret`` is masked in the error text (mysql quotes the SQL near a
    syntax error).
    """
    try:
        proc = subprocess.run(
            argv, input=data if data is not None else '',
            capture_output=True, text=True, env=env)
    except OSError as exc:
        raise BackendError('%s: cannot run %s: %s' % (what, argv[0], exc))
    if proc.returncode:
        text = (proc.stderr.strip() or proc.stdout.strip()
                or 'no output')
        if secret:
            # As given, and as an SQL literal spells it (mysql quotes the
            # statement it refuses).
            for form in (_sql_string(secret)[1:-1], secret):
                text = text.replace(form, MASK)
        raise BackendError('%s: %s failed (exit %d): %s'
                           % (what, ' '.join(argv[:2]), proc.returncode,
                              text))
    return proc.stdout


def _distinct(items):
    return list(dict.fromkeys(items))


# ------------------------------------------------------------ MariaDB ----

def _sql_string(text):
    """``text`` as an SQL string literal (quotes and backslashes escaped)."""
    return "'%s'" % text.replace('\\', '\\\\').replace("'", "''")


def mariadb_users(defaults_file, user, password, databases, check=False):
    """The services' user (localhost, 127.0.0.1; GRANT ALL) and databases.

    root connects on the socket (unix_socket authentication, no password).
    Nothing is written when both user rows and every database exist.

    :returns: ``(changed, {"user_rows", "databases_present"})``.
    """
    databases = _distinct(databases)
    bad = [n for n in [user] + databases if not _SQL_NAME.match(n)]
    if bad:
        raise BackendError('mariadb: not a plain SQL name: %s'
                           % ', '.join(repr(n) for n in bad))
    mysql = ['mysql', '--defaults-file=%s' % defaults_file, '-uroot', '-N']
    query = ("SELECT COUNT(*) FROM mysql.user WHERE user='%s'; "
             "SELECT COUNT(*) FROM information_schema.schemata "
             "WHERE schema_name IN ('%s')" % (user, "','".join(databases)))
    out = _run(mysql + ['-e', query], 'mariadb: the user and databases')
    have = [int(n) for n in out.split()]
    details = {'user_rows': have[0] if have else 0,
               'databases_present': have[1] if len(have) > 1 else 0}
    if have == [2, len(databases)]:
        return False, details
    if not check:
        pw = _sql_string(password)
        sql = ''.join(
            ["CREATE USER IF NOT EXISTS '%s'@'%s' IDENTIFIED BY %s;\n"
             % (user, host, pw) for host in ('localhost', '127.0.0.1')]
            + ["GRANT ALL ON *.* TO '%s'@'%s';\n" % (user, host)
               for host in ('localhost', '127.0.0.1')]
            + ['CREATE DATABASE IF NOT EXISTS %s;\n' % db
               for db in databases])
        _run(mysql, 'mariadb: creating the user and databases', data=sql,
             secret=password)
    return True, details


# ------------------------------------------------------- Open vSwitch ----

def ovs_db(db):
    """``--db=`` value: a bare path is a unix socket."""
    return db if re.match(r'^(unix|punix|tcp|ssl):', db) else 'unix:' + db


def _ovs_quote(text):
    return text if _OVS_KEY.match(text) else json.dumps(text)


def ovs_current_ids(vsctl):
    """The external_ids of the Open_vSwitch record ({} when it has none)."""
    out = _run(vsctl + ['--no-wait', '--format=json',
                        '--columns=external_ids', 'list', 'Open_vSwitch'],
               'ovs: reading external_ids')
    rows = json.loads(out or '{}').get('data') or []
    if not rows:
        return {}
    cell = rows[0][0]
    if isinstance(cell, list) and len(cell) == 2 and cell[0] == 'map':
        return {k: v for k, v in cell[1]}
    return {}


def ovs_external_ids(db, external_ids, timeout=10, check=False):
    """Set the Open_vSwitch record's external_ids when any differs.

    Then, as ``ovs-vsctl --no-wait init`` and ``--no-wait set Open_vSwitch .
    external_ids:k="v" ...`` (every wanted id, in one transaction).

    :returns: ``(changed, {"differ": [keys], "before": {key: value}})``.
    """
    wanted = {str(k): str(v) for k, v in external_ids.items()}
    vsctl = ['ovs-vsctl', '--db=%s' % ovs_db(db), '--timeout=%d' % timeout]
    have = ovs_current_ids(vsctl)
    differ = sorted(k for k, v in wanted.items() if have.get(k) != v)
    details = {'differ': differ,
               'before': {k: have.get(k) for k in wanted}}
    if not differ:
        return False, details
    if not check:
        _run(vsctl + ['--no-wait', 'init'], 'ovs: init')
        _run(vsctl + ['--no-wait', 'set', 'Open_vSwitch', '.']
             + ['external_ids:%s=%s' % (_ovs_quote(k), json.dumps(v))
                for k, v in wanted.items()], 'ovs: setting external_ids')
    return True, details


# ----------------------------------------------------------- RabbitMQ ----
#
# rabbitmqctl starts an Erlang VM, which takes a while: each function runs
# once per distinct input, remembered in ``cache`` (next to RabbitMQ's own
# data, so ``down --purge`` forgets it with the data it describes).  The
# cache file holds the sha256 of the key, never the key (which may hold a
# password).  A hit returns (False, stored details) and runs nothing.

RABBITMQCTL = ['rabbitmqctl', '-q', '-n', 'rabbit@localhost']


class Rabbit(object):
    """rabbitmqctl with the node's environment; stdin is closed."""

    def __init__(self, env=None, ctl=None):
        self.env = (dict(os.environ, **{k: str(v) for k, v in env.items()})
                    if env else None)
        self.ctl = list(ctl or RABBITMQCTL)

    def __call__(self, *words, data=None, secret=None):
        return _run(self.ctl + list(words),
                    'rabbitmq: %s' % ' '.join(words[:2]),
                    data=data, env=self.env, secret=secret)


def _cached(cache, key, check, work):
    """``work(check)`` once per distinct ``key``: (changed, details, hit).

    A hit runs nothing.  ``work`` reads, then writes only without
    ``check``; only a real run is remembered.
    """
    stored = aio_cache.recall(cache, key)
    if stored is not None:
        return False, stored, True
    changed, details = work(check)
    if not check:
        aio_cache.remember(cache, key, details)
    return changed, details, False


def rabbitmq_user(cache, name, password, env=None, check=False):
    """The user, its password and every permission on the default vhost.

    Once per user and password: a new password runs again.  Setting the
    password counts as a change.

    :returns: ``(changed, {"created": bool}, cached)``.
    """
    ctl = Rabbit(env)

    def work(check):
        users = ctl('list_users')
        exists = any(line.split(None, 1)[:1] == [name]
                     for line in users.splitlines())
        if not check:
            ctl('change_password' if exists else 'add_user', name,
                data=password + '\n', secret=password)
            ctl('set_permissions', name, '.*', '.*', '.*')
        return True, {'created': not exists}

    key = json.dumps(['rabbitmq_user', name, password])
    return _cached(cache, key, check, work)


def rabbitmq_vhosts(cache, user, vhosts, env=None, check=False):
    """Each vhost, the user with every permission on it.

    Adds only a missing vhost and sets only missing or different
    permissions; a vhost no longer listed is left in place.

    :returns: ``(changed, {"added": [...], "permitted": [...]}, cached)``.
    """
    vhosts = _distinct(vhosts)
    bad = [v for v in vhosts if not v or v.startswith('-')]
    if bad:
        raise BackendError('rabbitmq: a vhost name empty or starting with '
                           '"-" (an option to rabbitmqctl): %r' % bad)
    ctl = Rabbit(env)
    want = '\t'.join([user, '.*', '.*', '.*'])

    def work(check):
        have = ctl('-s', 'list_vhosts', 'name').splitlines()
        added, permitted = [], []
        for vhost in vhosts:
            if vhost not in have:
                added.append(vhost)
                if not check:
                    ctl('add_vhost', vhost)
            elif want in ctl('-s', 'list_permissions', '-p',
                             vhost).splitlines():
                continue
            permitted.append(vhost)
            if not check:
                ctl('set_permissions', '-p', vhost, user, '.*', '.*', '.*')
        return bool(added or permitted), {'added': added,
                                          'permitted': permitted}

    key = json.dumps(['rabbitmq_vhosts', user, vhosts])
    return _cached(cache, key, check, work)


def _policy_spec(policy):
    return (policy['pattern'], 'queues', policy['definition'],
            int(policy.get('priority', 0)))


def rabbitmq_current_policies(ctl):
    """name -> (pattern, apply-to, definition, priority), default vhost."""
    out = ctl('list_policies', '--formatter', 'json')
    found = {}
    for policy in json.loads(out or '[]'):
        definition = policy.get('definition')
        if isinstance(definition, str):
            definition = json.loads(definition)
        found[policy['name']] = (policy.get('pattern'),
                                 policy.get('apply-to'), definition,
                                 int(policy.get('priority', 0)))
    return found


def rabbitmq_policies(cache, policies, env=None, check=False):
    """Each policy ({name, pattern, definition, priority?}) on queues.

    Every policy applies to queues of the default vhost; only one that is
    missing or differs is set.

    :returns: ``(changed, {"set": [names]}, cached)``.
    """
    for policy in policies:
        if str(policy['pattern']).startswith('-'):
            raise BackendError('policy %s: a pattern starting with "-" reads '
                               'as an option to rabbitmqctl'
                               % policy['name'])
    ctl = Rabbit(env)

    def work(check):
        have = rabbitmq_current_policies(ctl)
        done = []
        for policy in policies:
            spec = _policy_spec(policy)
            if have.get(policy['name']) == spec:
                continue
            done.append(policy['name'])
            if not check:
                ctl('set_policy', '--apply-to', 'queues', '--priority',
                    str(spec[3]), policy['name'], spec[0],
                    json.dumps(spec[2]))
        return bool(done), {'set': done}

    key = json.dumps(['rabbitmq_policies', policies], sort_keys=True)
    return _cached(cache, key, check, work)
