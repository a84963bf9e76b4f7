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
"""A rolling upgrade from stock nova 34.0.0 to the reference series.

``python -m pending_aio upgrade TREE``, with the tools venv's python and
OS_CLIENT_CONFIG_FILE pointing at .aio/clouds.yaml, on the embedded cloud
running stock nova (the functional stage's stock leg leaves it so).  TREE
is the series' nova tree (tools/prepare-tree's output).

Before the upgrade, on stock nova: an ACTIVE server and a server buried in
cell0 by NoValidHost (ERROR).  Then nova's documented order
(doc/source/embedded-cloud.rst, "The rolling upgrade"):

1. the series installed beside the running services, the database syncs
   with the new code, ``[DEFAULT] use_pending_state`` and ``[upgrade_levels]
   compute = auto`` set, ``nova-status upgrade check``;
2. the schedulers restarted; every conductor stopped, a server created (its
   BuildRequest in the API database, its build queued), the conductors
   started with the series: the queued build goes on;
3. the upgrade's own mutant: the guard that keeps PENDING from an older
   nova-api removed from the installed code and the conductors restarted,
   a burial must show what the check below catches; then the code put
   back;
4. with every nova-api still stock: a burial is ERROR, never PENDING;
   ``nova-status upgrade check`` warns, naming the old nova-api's host;
5. every nova-api restarted (the last control service);
6. each nova-compute restarted, one at a time;
7. SIGHUP to the control services, each nova-compute restarted again,
   ``nova-manage db online_data_migrations``;
8. ``nova-status upgrade check``: the series' check succeeds, none fails
   (another may warn for reasons of its own); a burial is PENDING; the
   server the series buried during the upgrade is rebuilt at 2.106, the
   one stock nova buried answers the 409 decided for it (no recorded
   reason).

After every step: each server shows (200, never 404 or 500) in a show and
in a listing, never UNKNOWN, and no instance of any cell is in the
``pending`` vm_state while a stock nova-api runs.  Each step prints one
line; a failed check stops the leg naming the step.  Everything the leg
creates is named ``pcupg-`` and removed at the end, also on failure.
"""

import configparser
import functools
import glob
import os
import re
import subprocess
import sys
import tempfile

from pending_aio.cloud import client
from pending_aio.mutants import mutant as nova_mutant
from pending_aio import topology
from pending_tempest_plugin.common import polling

# The series' microversions (group_vars aio_reference_microversions).
PENDING_MV = topology.microversions()['pending_state_microversion']
REBUILD_MV = topology.microversions()['cell0_rebuild_microversion']

PREFIX = 'pcupg-'
TRAIT = 'CUSTOM_PCUPG_CAPACITY'
# The guard of the series the leg's mutant removes (reference/nova/mutants).
GUARD_MUTANT = 'upgrade-pending-guard-removed'
# The series' check in nova-status upgrade check.
PENDING_CHECK = 'PENDING state and nova-api versions'


class UpgradeError(Exception):
    pass


def aio_dir():
    return os.environ['AIO_DIR']


def path(*names):
    return os.path.join(aio_dir(), *names)


def say(text):
    print('upgrade: %s' % text, flush=True)


def run(argv, check=True, **kwargs):
    proc = subprocess.run(argv, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, **kwargs)
    if check and proc.returncode:
        raise UpgradeError('%s failed (exit %d):\n%s' % (
            ' '.join(argv), proc.returncode, proc.stdout))
    return proc


def other_cell_confs():
    """The cell conductors' files whose database is not nova.conf's."""
    def database(conf):
        parser = configparser.ConfigParser(strict=False, interpolation=None)
        parser.read(conf)
        return parser.get('database', 'connection', fallback='')
    own = database(nova_conf())
    return [conf for conf in sorted(glob.glob(path('etc', 'nova',
                                                   'nova-cell*.conf')))
            if database(conf) != own]


def run_all(argvs):
    """Run the commands at once; UpgradeError naming the first that failed."""
    procs = []
    for argv in argvs:
        # Each its own file: no pipe fills while another is waited for.
        out = tempfile.TemporaryFile(mode='w+')
        procs.append((argv, out, subprocess.Popen(
            argv, stdout=out, stderr=subprocess.STDOUT, text=True)))
    failed = []
    for argv, out, proc in procs:
        proc.wait()
        out.seek(0)
        if proc.returncode:
            failed.append('%s failed (exit %d):\n%s' % (
                ' '.join(argv), proc.returncode, out.read()))
        out.close()
    if failed:
        raise UpgradeError(failed[0])


def ctl(*args):
    return run([path('bin', 'supervisorctl')] + list(args))


def programs(prefix):
    names = re.findall(r'(?m)^(\S+)\s', ctl('status').stdout)
    return sorted(n for n in names if n.startswith(prefix))


def sql(query, defaults_file=None):
    return run(['mariadb', '--defaults-file=' + (defaults_file
                                                 or path('etc', 'my.cnf')),
                '-uroot', '-N', '-e', query]).stdout.split()


def mariadb_instances():
    """The defaults files of the cloud's MariaDB instances.

    The cloud's own (my.cnf) and, with two cells, cell2's (my-cell2.cnf).
    """
    return sorted(glob.glob(path('etc', 'my*.cnf')))


def stock_api_runs():
    """Whether the nova-api service record is older than the series'."""
    rows = sql("SELECT MIN(version) FROM nova.services WHERE `binary` = "
               "'nova-osapi_compute' AND deleted = 0")
    return bool(rows) and rows[0] != 'NULL' and int(rows[0]) < 75


def old_api_hosts():
    """The hosts of the nova-api service records older than the series'."""
    return sql("SELECT host FROM nova.services WHERE `binary` = "
               "'nova-osapi_compute' AND deleted = 0 AND version < 75 "
               "ORDER BY host")


def venv_bin(name):
    return path('venvs', 'openstack', 'bin', name)


def nova_conf():
    return path('etc', 'nova', 'nova.conf')


def nova_status():
    """(exit status, output) of ``nova-status upgrade check``."""
    proc = run([venv_bin('nova-status'), '--config-file', nova_conf(),
                'upgrade', 'check'], check=False)
    return proc.returncode, proc.stdout


def status_result(out, check):
    """The Result of ``check`` in nova-status's table (None if absent)."""
    found = re.search(r'Check: %s\s*\|\s*\n\|\s*Result: (\w+)'
                      % re.escape(check), out)
    return found.group(1) if found else None


def set_options(conf, options):
    """Set ``{(section, name): value}`` in an INI file, keeping the rest."""
    with open(conf) as f:
        lines = f.read().splitlines()
    for (section, name), value in options.items():
        header = '[%s]' % section
        if header not in lines:
            lines += ['', header]
        start = lines.index(header) + 1
        end = next((i for i in range(start, len(lines))
                    if lines[i].startswith('[')), len(lines))
        for i in range(start, end):
            if re.match(r'%s\s*=' % re.escape(name), lines[i]):
                lines[i] = '%s = %s' % (name, value)
                break
        else:
            lines.insert(start, '%s = %s' % (name, value))
    with open(conf, 'w') as f:
        f.write('\n'.join(lines) + '\n')


class Cloud(object):
    """The admin's view of the cloud, through its APIs."""

    def __init__(self):
        self.conn = client.connect('aio-admin')
        self.servers = {}      # name -> id, every server the leg made
        self.flavor = None

    # -- compute
    def call(self, method, url, version='2.37', **kwargs):
        return self.conn.compute.request(
            url, method, microversion=version, raise_exc=False, **kwargs)

    def max_version(self):
        body = self.call('GET', '/').json()
        return body['version']['version']

    def boot(self, name, flavor, version='2.37'):
        image = self.conn.image.find_image('aio-tiny', ignore_missing=False)
        resp = self.call('POST', '/servers', version, json={'server': {
            'name': PREFIX + name, 'imageRef': image.id,
            'flavorRef': flavor, 'networks': 'none'}})
        if resp.status_code != 202:
            raise UpgradeError('create %s: %d %s' % (name, resp.status_code,
                                                     resp.text))
        self.servers[name] = resp.json()['server']['id']
        return self.servers[name]

    def show(self, server_id, version=None):
        resp = self.call('GET', '/servers/%s' % server_id,
                         version or self.max_version())
        return resp.status_code, (resp.json().get('server', {})
                                  if resp.status_code == 200 else resp.text)

    def wait(self, name, statuses, timeout=120):
        version = self.max_version()

        def timed_out(value):
            code, body = value
            return UpgradeError('server %s: expected %s within %d s, got '
                                '%d %s' % (name, '/'.join(statuses),
                                           timeout, code,
                                           body.get('status')
                                           if code == 200 else body))

        return polling.poll(
            lambda: self.show(self.servers[name], version),
            lambda value: value[0] == 200 and value[1]['status'] in statuses,
            timeout, 0.5, what='server %s' % name, timed_out=timed_out)[1]

    # -- the NoValidHost trigger: a flavor that needs a trait no host has
    def make_flavor(self):
        flavor = self.conn.compute.create_flavor(
            name=PREFIX + 'capacity', ram=64, vcpus=1, disk=1)
        self.flavor = flavor.id
        self.conn.compute.create_flavor_extra_specs(
            flavor, {'trait:%s' % TRAIT: 'required'})
        self.placement('PUT', '/traits/%s' % TRAIT)
        return flavor.id

    def placement(self, method, url, **kwargs):
        resp = self.conn.placement.request(
            url, method, microversion='1.6', raise_exc=False, **kwargs)
        if resp.status_code >= 400:
            raise UpgradeError('placement %s %s: %d %s' % (
                method, url, resp.status_code, resp.text))
        return resp

    def capacity(self, present):
        """The trigger's trait on cn1's provider (present) or on none."""
        providers = self.placement('GET', '/resource_providers').json()
        for rp in providers['resource_providers']:
            traits = self.placement(
                'GET', '/resource_providers/%s/traits' % rp['uuid']).json()
            names = set(traits['traits'])
            want = present and rp['name'].startswith('cn1')
            if (TRAIT in names) == want:
                continue
            names = (names | {TRAIT}) if want else (names - {TRAIT})
            self.placement(
                'PUT', '/resource_providers/%s/traits' % rp['uuid'],
                json={'traits': sorted(names),
                      'resource_provider_generation':
                          traits['resource_provider_generation']})

    def cleanup(self):
        """Remove what the leg made; the names of what is left."""
        left = []
        if stock_api_runs():
            unpend()   # a stock nova-api cannot delete them (see leg)
        for name, server_id in sorted(self.servers.items()):
            self.call('DELETE', '/servers/%s' % server_id)
        try:
            left = polling.poll(
                lambda: sorted(n for n, s in self.servers.items()
                               if self.show(s, '2.1')[0] != 404),
                lambda names: not names, 120, 0.5,
                what='the servers of the leg deleted')
        except polling.PollTimeout as exc:
            left = exc.value
        if self.flavor:
            self.conn.compute.delete_flavor(self.flavor, ignore_missing=True)
        try:
            self.capacity(False)
            self.conn.placement.request('/traits/%s' % TRAIT, 'DELETE',
                                        microversion='1.6', raise_exc=False)
        except UpgradeError as exc:
            left.append('trait %s (%s)' % (TRAIT, exc))
        return left


def observe(cloud, step, old_api):
    """The per-step checks (module docstring); a line, or UpgradeError."""
    problems = []
    version = cloud.max_version()
    statuses = {}
    for name, server_id in sorted(cloud.servers.items()):
        code, body = cloud.show(server_id, version)
        if code != 200:
            problems.append('show %s: %d %s' % (name, code, body))
            continue
        statuses[name] = body['status']
        if body['status'] == 'UNKNOWN':
            problems.append('show %s: status UNKNOWN (vm_state %s)' % (
                name, body.get('OS-EXT-STS:vm_state')))
    resp = cloud.call('GET', '/servers/detail?all_tenants=1', version)
    if resp.status_code != 200:
        problems.append('servers detail: %d %s' % (resp.status_code,
                                                   resp.text))
    else:
        listed = {s['id']: s['status'] for s in resp.json()['servers']}
        for name, server_id in sorted(cloud.servers.items()):
            if server_id not in listed:
                problems.append('servers detail: %s not listed' % name)
            elif listed[server_id] == 'UNKNOWN':
                problems.append('servers detail: %s UNKNOWN' % name)
    if old_api:
        pending = []
        for cnf, db in cell_databases():
            pending += sql("SELECT uuid FROM %s.instances WHERE "
                           "vm_state = 'pending' AND deleted = 0" % db, cnf)
        if pending:
            problems.append('vm_state pending while a stock nova-api runs: '
                            '%s' % ' '.join(pending))
    if problems:
        raise UpgradeError('%s: %s' % (step, '; '.join(problems)))
    say('%s: max microversion %s, %s' % (step, version, ', '.join(
        '%s %s' % item for item in sorted(statuses.items()))))


@functools.lru_cache(maxsize=None)
def cell_databases():
    """(defaults file, database) of cell0 and each cell, in every instance.

    Read once: the leg creates no cell, and computes_up polls.
    """
    return tuple((cnf, db) for cnf in mariadb_instances()
                 for db in sql("SHOW DATABASES LIKE 'nova%'", cnf)
                 if db != 'nova_api')


def unpend(server_id=None):
    """PENDING instances of the leg (or ``server_id``) put in ERROR."""
    where = ("uuid = '%s'" % server_id if server_id
             else "display_name LIKE '%s%%'" % PREFIX)
    for cnf, db in cell_databases():
        sql("UPDATE %s.instances SET vm_state = 'error' WHERE "
            "vm_state = 'pending' AND deleted = 0 AND %s" % (db, where), cnf)


def restart(names):
    ctl('restart', *names)


def computes_up(since):
    """Every nova-compute reported since ``since``, in whichever cell.

    One query per cell (cell0 has no service).
    """
    count = sum(int(sql("SELECT COUNT(*) FROM %s.services WHERE `binary` = "
                        "'nova-compute' AND deleted = 0 AND last_seen_up "
                        ">= '%s'" % (db, since), cnf)[0])
                for cnf, db in cell_databases() if db != 'nova_cell0')
    return count == len(programs('nova-compute-'))


def wait_for(what, predicate, timeout=120):
    polling.poll(predicate, bool, timeout, 0.5, what=what, describe=bool,
                 timed_out=lambda value: UpgradeError(
                     '%s: not within %d s' % (what, timeout)))


def utc_now():
    return run(['date', '-u', '+%Y-%m-%d %H:%M:%S']).stdout.strip()


def restart_control(names):
    """Restart nova control services; wait for every compute's heartbeat."""
    since = utc_now()
    restart(names)
    wait_for('every nova-compute up after restarting %s' % ' '.join(names),
             lambda: computes_up(since))


def apis_answer(cloud):
    def answers():
        try:
            return cloud.call('GET', '/').status_code == 200
        except Exception:
            return False
    wait_for('nova-api answering', answers, 60)


def install(tree):
    """The series' nova into the services' venv, beside the running code."""
    uv = glob.glob(path('venvs', 'uv', 'bin', 'uv'))
    with open(os.path.join(tree, '.nova-version')) as f:
        version = f.read().strip()
    env = dict(os.environ, PBR_VERSION=version, UV_LINK_MODE='copy')
    run([uv[0], 'pip', 'install', '--compile-bytecode', '--python',
         venv_bin('python'), '--no-deps', '--reinstall', tree], env=env)
    virt = run([venv_bin('python'), '-c', 'import os, nova.virt; '
                'print(os.path.dirname(nova.virt.__file__))']).stdout.strip()
    run(['cp', path('lib', 'aio_virt_driver.py'), virt + '/'])


def guard_mutant(apply):
    """Apply the leg's mutant to the installed series (True), or undo it.

    Undoing puts back the file as it was before the mutant.
    """
    spec = nova_mutant.DEFINITIONS.LEG_MUTANTS[GUARD_MUTANT]
    target = os.path.join(nova_mutant.site_packages(), spec['file'])
    saved = path('state', 'upgrade-mutant-original.py')
    if apply:
        with open(target) as f:
            text = f.read()
        if text.count(spec['old']) != 1:
            raise UpgradeError('mutant %s: its text occurs %d times in %s'
                               % (GUARD_MUTANT, text.count(spec['old']),
                                  spec['file']))
        with open(saved, 'w') as f:
            f.write(text)
        text = text.replace(spec['old'], spec['new'])
    else:
        with open(saved) as f:
            text = f.read()
        os.unlink(saved)
    with open(target, 'w') as f:
        f.write(text)
    nova_mutant.drop_bytecode(target)


def leg(cloud, tree):
    conductors = programs('nova-conductor')
    schedulers = programs('nova-scheduler')
    apis = programs('nova-api')
    computes = programs('nova-compute-')
    small = cloud.conn.compute.find_flavor('aio.nano',
                                           ignore_missing=False).id
    trigger = cloud.make_flavor()
    cloud.capacity(False)

    # Stock nova: what a cloud has when its upgrade starts.
    cloud.boot('active', small)
    cloud.boot('buried-by-stock', trigger)
    cloud.wait('active', {'ACTIVE'})
    cloud.wait('buried-by-stock', {'ERROR'})
    observe(cloud, 'stock nova', True)

    # 1. The new code installed beside the running stock services.
    install(tree)
    manage = [venv_bin('nova-manage'), '--config-file', nova_conf()]
    run(manage + ['api_db', 'sync'])
    # `db sync` syncs cell0 and nova.conf's own cell; each other cell with
    # its conductor's configuration (two cells: nova-cell2.conf), at once.
    run_all([manage + ['db', 'sync']] + [
        manage + ['--config-file', conf, 'db', 'sync', '--local_cell']
        for conf in other_cell_confs()])
    set_options(nova_conf(), {('DEFAULT', 'use_pending_state'): 'true',
                              ('upgrade_levels', 'compute'): 'auto'})
    code, out = nova_status()
    say('series installed, databases synced, nova-status upgrade check: '
        'exit %d' % code)
    observe(cloud, 'series installed, nothing restarted', True)

    # 2. The schedulers, then the conductors: a build queued while they
    # are stopped (its BuildRequest in the API database) goes on with the
    # series.  They are down for a few seconds only, less than
    # service_down_time: the computes still read up when the build comes.
    restart(schedulers)
    since = utc_now()
    ctl('stop', *conductors)
    cloud.boot('queued', small)
    cloud.wait('queued', {'BUILD'})
    observe(cloud, 'conductors stopped: a build queued', True)
    ctl('start', *conductors)
    wait_for('every nova-compute up after the conductors start',
             lambda: computes_up(since))
    cloud.wait('queued', {'ACTIVE'})
    observe(cloud, 'conductors and schedulers of the series', True)

    # 3. The leg's mutant: the guard removed, the checks must see it.
    guard_mutant(True)
    try:
        restart_control(conductors)
        cloud.boot('buried-by-mutant', trigger)
        cloud.wait('buried-by-mutant', {'ERROR', 'UNKNOWN', 'PENDING'})
        try:
            observe(cloud, 'mutant %s' % GUARD_MUTANT, True)
        except UpgradeError as exc:
            say('mutant %s: caught (%s)' % (GUARD_MUTANT, exc))
        else:
            raise UpgradeError('mutant %s: not caught: a burial while a '
                               'stock nova-api runs passed the checks'
                               % GUARD_MUTANT)
    finally:
        guard_mutant(False)
    # A stock nova-api cannot even delete a PENDING server (its
    # notification payload refuses the state: 500): the server is put in
    # ERROR, as the guard would have, before it is deleted.
    unpend(cloud.servers['buried-by-mutant'])
    cloud.call('DELETE', '/servers/%s' % cloud.servers['buried-by-mutant'])
    wait_for('the mutant\'s server deleted', lambda: cloud.show(
        cloud.servers['buried-by-mutant'])[0] == 404)
    del cloud.servers['buried-by-mutant']
    restart_control(conductors)

    # 4. Mixed: series conductors, stock nova-api.
    cloud.boot('buried-mixed', trigger)
    cloud.wait('buried-mixed', {'ERROR', 'UNKNOWN', 'PENDING'})
    observe(cloud, 'burial with a stock nova-api (ERROR, not PENDING)', True)
    code, out = nova_status()
    hosts = old_api_hosts()
    # nova-status wraps its table's cells, at spaces and after hyphens:
    # read the words, not the lines.
    words = ' '.join(re.sub(r'[|+]', ' ', out).split()).replace('- ', '-')
    unnamed = [h for h in hosts if '%s (version' % h not in words]
    if (status_result(out, PENDING_CHECK) != 'Warning' or not hosts
            or unnamed or 'use_pending_state is enabled' not in words):
        named = ', '.join(hosts) or 'no record'
        raise UpgradeError('nova-status upgrade check with a stock nova-api '
                           '(%s): expected a warning naming each (exit 1), '
                           'got exit %d:\n%s' % (named, code, out))
    say('nova-status upgrade check with a stock nova-api: warning naming '
        '%s' % ', '.join(hosts))

    # 5. nova-api last among the control services.
    restart(apis)
    apis_answer(cloud)
    observe(cloud, 'nova-api of the series', False)

    # 6. The computes, one at a time.
    for program in computes:
        since = utc_now()
        restart([program])
        wait_for('%s up' % program, lambda: computes_up(since))
        observe(cloud, '%s of the series' % program, False)

    # 7. The RPC version pins of [upgrade_levels] compute = auto cleared:
    # SIGHUP to the control services.  nova-compute is restarted instead:
    # on SIGHUP, stock nova 34.0.0's nova-compute (oslo.service's threading
    # backend) stopped taking RPC casts here (a delete stayed "deleting"
    # until it restarted).  Then the online data migrations.
    since = utc_now()
    ctl('signal', 'HUP', *(conductors + schedulers + apis))
    for program in computes:
        restart([program])
    wait_for('every nova-compute up after SIGHUP and restarts',
             lambda: computes_up(since))
    apis_answer(cloud)
    run([venv_bin('nova-manage'), '--config-file', nova_conf(), 'db',
         'online_data_migrations'])
    observe(cloud, 'SIGHUP, computes restarted, online data migrations',
            False)

    # 8. The upgraded cloud.  Other checks may warn for reasons of their
    # own (hw_machine_type, a libvirt matter): the series' check succeeds
    # and none fails.
    code, out = nova_status()
    if code == 2 or status_result(out, PENDING_CHECK) != 'Success':
        raise UpgradeError('nova-status upgrade check after the upgrade: '
                           'expected "%s" to succeed and no check to fail, '
                           'got exit %d:\n%s' % (PENDING_CHECK, code, out))
    cloud.boot('pending-after', trigger, PENDING_MV)
    body = cloud.wait('pending-after', {'PENDING', 'ERROR'})
    if body['status'] != 'PENDING':
        raise UpgradeError('a burial after the upgrade: expected PENDING, '
                           'got %s' % body['status'])
    cloud.capacity(True)
    resp = cloud.call('POST', '/servers/%s/action'
                      % cloud.servers['buried-by-stock'], REBUILD_MV,
                      json={'rebuild': {'imageRef': body['image']['id']}})
    if resp.status_code != 409:
        raise UpgradeError('rebuild at %s of the server stock nova buried: '
                           'expected 409 (no recorded burial reason), got '
                           '%d %s' % (REBUILD_MV, resp.status_code,
                                      resp.text))
    for name in ('buried-mixed', 'pending-after'):
        resp = cloud.call('POST', '/servers/%s/action' % cloud.servers[name],
                          REBUILD_MV, json={'rebuild': {
                              'imageRef': body['image']['id']}})
        if resp.status_code != 202:
            raise UpgradeError('rebuild at %s of %s: expected 202, got '
                               '%d %s' % (REBUILD_MV, name, resp.status_code,
                                          resp.text))
        cloud.wait(name, {'ACTIVE'})
    cloud.capacity(False)
    observe(cloud, 'upgraded: buried servers rebuilt at %s' % REBUILD_MV,
            False)
    say('nova-status upgrade check: success; a new burial PENDING; the '
        'server stock nova buried: 409 at %s' % REBUILD_MV)


def main(argv):
    if len(argv) != 1:
        print('usage: python -m pending_aio upgrade TREE', file=sys.stderr)
        return 2
    cloud = Cloud()
    rc = 0
    try:
        leg(cloud, argv[0])
    except UpgradeError as exc:
        print('upgrade: FAIL: %s' % exc, file=sys.stderr)
        rc = 1
    finally:
        left = cloud.cleanup()
    if left:
        print('upgrade: FAIL: left behind: %s' % ', '.join(left),
              file=sys.stderr)
        return 1
    if not rc:
        say('OK')
    return rc
