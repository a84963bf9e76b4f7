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
"""``tox -e conformance`` and the conformance report of the last run.

``python -m pending_aio conformance [RUN-ARGS...]`` (``tools/conformance``):
the conformance verdict of the embedded cloud, reached the way any cloud's
is: bring the cloud up if needed (it is left running), then
``pending-conformance run`` on the workspace ``tox -e aio`` wrote with
``pending-conformance init`` from .aio/clouds.yaml and .aio/claims.yaml.

Without arguments it decides every requirement the reference cloud can
show: one ``up``, then each configuration leg of :data:`LEGS` (the whole
suite on the default cloud, whose host_status tests read the three policy
profiles through a nova-api each and whose quota recheck tests read
unified limits through a control plane's nova-api, and the tests that
need ``use_pending_state`` off, with quota counted in placement, through
another control plane: the cloud always runs both, so no leg switches
it).  The other leg starts once the default leg's serial phase has
ended, beside its parallel phase.  The legs' reports merge with
``pending-conformance merge``: each row names the leg that decided it::

    tox -e conformance                          # every leg, merged
    CONFORMANCE_LEGS=default tox -e conformance # the default cloud only
    tox -e conformance -- --regex X             # arguments go to `run`,
                                                # on the default cloud
    AIO_EXTRA_VARS=... tox -e conformance       # one run, that cloud
    CONFORMANCE_MODE=certify tox -e conformance  # the default leg and
                                                 # the merge certify, the
                                                 # partial legs explore

Artifacts: .aio/conformance/<leg>/ per leg (leg: nova, PENDING on/off,
policy profile, quota counting unless in the database; CONFORMANCE_LEG
names a single run's; the partial legs' output in
.aio/logs/conformance-<leg>.log) and .aio/conformance/merged/
(report.json, report.txt; legs.json: the `up` and each leg's run seconds,
and when it started).  The `up` takes AIO_BASE_VARS too (the nova to
run...).

``python -m pending_aio conformance-report JSON-FILE``
(``tools/conformance-report``): the conformance report (one line per
requirement of the catalogue) of the last Tempest run in the embedded
cloud's workspace; also written as JSON.
"""

import collections
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

import pending_aio
from pending_aio.cloud import control as cloud
from pending_aio import sh
from pending_aio import topology

# The suite; a leg's test classes select part of it (classes_regex).
SUITE_REGEX = r'^pending_tempest_plugin\.tests\.'


def classes_regex(*classes):
    """The regex of every test of CLASSES (class ids, module included).

    Legs name their classes rather than write regexes of names: a unit
    test checks that each named class is in the suite, so a renamed class
    cannot leave its leg unseen.
    """
    return r'^(%s)\.' % '|'.join(re.escape(c) for c in classes)


Leg = collections.namedtuple('Leg', 'name plane regex decides weights '
                                    'classes')
# ``plane``: the nova control plane the leg's requests go through: '' for
# nova's own control services (the workspace .aio/tempest), else one of
# :data:`PLANES` (.aio/tempest-PLANE, whose tempest.conf reaches that
# plane's nova-api through [compute] catalog_type compute-PLANE).
# ``weights``: the leg's class weights (pending-conformance run --weights),
# or None for the suite's own: a partial leg skips classes, and the
# suite's weights would split it unevenly.  ``classes``: its class ids, or
# 'suite'.


def make_legs(found):
    """Legs from :func:`topology.legs`' dicts."""
    return tuple(Leg(leg['name'], leg['plane'],
                     SUITE_REGEX if leg['classes'] == 'suite'
                     else classes_regex(*leg['classes']),
                     leg['decides'], leg['weights'], leg['classes'])
                 for leg in found)


# The legs of the full verdict, in the order their reports merge
# (group_vars aio_conformance_legs, which says why these two).  One `up`,
# then the default leg's run, and once its serial phase has ended (no
# compute stopped any more) the others' runs beside its parallel phase
# (issue 20).  The three host_status policy profiles need no leg: the
# default cloud serves each from a nova-api of its own
# (aio_host_status_profile_apis, claimed as [nova_conformance]
# host_status_profile_services), and each host_status test checks them
# all in one pass over each host state.  Nor do the three quota counting
# modes: the PENDING-off plane counts in placement, and the default cloud
# claims the plane unified-limits (PENDING on, like nova's own) as
# [nova_conformance] quota_counting_services, whose quota recheck tests
# check the database mode and then unified limits through that plane's
# nova-api.
LEGS = make_legs(topology.legs())
DEFAULT_LEG = next(leg for leg in LEGS if not leg.plane)
# The functional stage's partial leg (plugin_legs).
PENDING_OFF_LEG = next(leg for leg in LEGS if leg.name == 'pending-off')
# Each plane's options as the `up` variables that would give nova's own
# control services the same, from group_vars aio_nova_planes.
PLANES = topology.planes()

# What `up` variables put in tempest.conf (the seed's claims), and the
# value of each on the default cloud (the reference nova): the checks that
# an `up` made the cloud (or a plane's workspace) what it is asked to be,
# the options the variables leave alone included.
CLAIMED_BY = {
    'aio_host_status_policy_profile': ('host_status_policy_profile',
                                       'admin_only'),
    'aio_quota_counting': ('quota_counting', 'db'),
    'aio_quota_recheck': ('quota_recheck', 'false'),
    'aio_use_pending_state': ('pending_state_enabled', 'true'),
}
# The host_status policy profiles the embedded cloud serves from a nova-api
# of their own (group_vars aio_host_status_profile_apis); the seed claims
# each but the cloud's own profile as [nova_conformance]
# host_status_profile_services, at catalog service type compute-PROFILE.
PROFILE_APIS = topology.profile_apis()
# The seed writes booleans as true/false.
_BOOLEANS = {'true': 'true', 'yes': 'true', '1': 'true', 'on': 'true',
             'false': 'false', 'no': 'false', '0': 'false', 'off': 'false'}


def claimed(variables, plane=''):
    """The tempest.conf lines (regexes) a cloud's ``up`` must have written.

    One per variable of :data:`CLAIMED_BY`, the value of ``variables`` or
    the default cloud's; ValueError for another variable, so that a new
    leg variable gets its check.  For the reference nova (the seed claims
    PENDING off for stock nova whatever the variable).  With ``plane``, the
    workspace of that plane: its options (:data:`PLANES`) over
    ``variables``, its compute endpoint, and no other profile's.
    """
    values = _values(variables + ' ' + (PLANES[plane] if plane else ''))
    lines = [r'^%s = %s$' % (CLAIMED_BY[name][0], re.escape(values[name]))
             for name in sorted(CLAIMED_BY)]
    if plane:
        lines.append(r'^catalog_type = %s$' % re.escape(service_type(plane)))
        return lines
    # The other profiles' endpoints: without them the default leg would
    # decide the admin_or_owner and unknown_only rows nowhere.
    services = profile_services(values['aio_host_status_policy_profile'])
    if services:
        lines.append(r'^host_status_profile_services = %s$'
                     % re.escape(services))
    # The other quota counting modes' endpoints: without them the default
    # leg would decide RB-11 under unified limits nowhere.
    services = quota_services(values)
    if services:
        lines.append(r'^quota_counting_services = %s$' % re.escape(services))
    return lines


def _values(variables):
    """{variable: value} of CLAIMED_BY after ``variables`` (name=value)."""
    values = dict((name, default)
                  for name, (_, default) in CLAIMED_BY.items())
    for item in variables.split():
        name, _, value = item.partition('=')
        if name not in CLAIMED_BY:
            raise ValueError('%s: no tempest.conf option is known to show '
                             'it' % name)
        if CLAIMED_BY[name][1] in _BOOLEANS:
            value = _BOOLEANS.get(value.lower(), value)
        values[name] = value
    return values


def quota_services(values):
    """The seed's quota_counting_services for a cloud of ``values``.

    The planes that differ from nova's own control services (``values``,
    :func:`_values`) in their quota counting alone (the same
    use_pending_state, whichever nova runs), one per mode, the first plane
    of :data:`PLANES` for a mode, sorted by mode (roles/aio_seed
    defaults; a unit test renders them and compares).
    """
    pending = values['aio_use_pending_state']
    found = {values['aio_quota_counting']: None}
    planes = [(_values(PLANES[plane]), plane) for plane in PLANES]
    for mine, plane in sorted(planes,
                              key=lambda p: p[0]['aio_quota_counting']):
        mode = mine['aio_quota_counting']
        if mode not in found and mine['aio_use_pending_state'] == pending:
            found[mode] = service_type(plane)
    return ','.join('%s:%s' % (mode, service)
                    for mode, service in sorted(found.items()) if service)


def service_type(name):
    """The catalog service type of the nova-api of a plane or profile.

    As the seed registers them (roles/aio_nova, nova-planes.json.j2 and
    host-status-apis.json.j2): ``compute-NAME``.
    """
    return 'compute-' + name


def profile_services(profile, swapped=False):
    """The seed's host_status_profile_services for a cloud's ``profile``.

    ``swapped``: each profile claimed at another's nova-api (the profiles
    in reverse order), a claim the wrong-claim leg makes.
    """
    profiles = [p for p in PROFILE_APIS if p != profile]
    apis = list(reversed(profiles)) if swapped else profiles
    return ','.join('%s:%s' % (p, service_type(api))
                    for p, api in zip(profiles, apis))


def workspace(leg):
    """The Tempest workspace of a leg's plane."""
    return sh.path('tempest-%s' % leg.plane if leg.plane else 'tempest')


def claims_file(leg):
    """The claims the seed wrote for a leg's plane."""
    return sh.path('claims-%s.yaml' % leg.plane if leg.plane
                   else 'claims.yaml')


def tempest_conf(leg):
    return os.path.join(workspace(leg), 'etc', 'tempest.conf')


def unclaimed(leg, full=False):
    """The claims a leg's tempest.conf lacks (regexes), [] when none.

    A plane's workspace must reach that plane and claim its quota counting
    mode, and the default cloud's must name the other profiles' and quota
    counting modes' endpoints (without them their rows would be decided
    nowhere), whatever nova the cloud runs (AIO_BASE_VARS may name stock
    nova, which claims no PENDING state); with ``full``, every claim of
    the reference nova's (:func:`claimed`).
    """
    conf = tempest_conf(leg)
    patterns = claimed('', leg.plane)
    if not full:
        own = (('^catalog_type ', '^quota_counting ') if leg.plane else
               ('^host_status_profile_services ',
                '^quota_counting_services '))
        patterns = [p for p in patterns if p.startswith(own)]
    return [pattern for pattern in patterns if sh.grep_q(pattern, conf)]


def checked_workspace(leg, stage, full=False):
    """A leg's workspace; STAGE fails when its claims lack a leg's own.

    ``full`` as :func:`unclaimed`'s.
    """
    missing = unclaimed(leg, full)
    if missing:
        sh.fail(stage, '%s does not claim %s' % (
            tempest_conf(leg), ', '.join(missing)))
    return workspace(leg)


def leg_args(leg):
    """A leg's regex and class weights, as ``run`` arguments.

    For ``pending-conformance run`` and ``runner.phases`` alike.
    """
    return ['--regex', leg.regex] + (
        ['--weights', leg.weights] if leg.weights else [])


def run_argv(leg, out, mode, args, ws=None):
    """The ``pending-conformance run`` of a workspace of the embedded cloud.

    ``leg``: the run's name in a merged report; ``ws``: the workspace
    (default: nova's own control services', .aio/tempest).
    """
    return sh.pending_conformance_argv(
        'run', '--workspace', ws or sh.path('tempest'), '--mode', mode,
        '--leg', leg, '--output', out, *args)


def leg_name(claims=None):
    """A run's name, from the claims of its workspace (``stage leg``)."""
    return sh.pending_aio_output('stage', 'leg',
                                 claims or sh.path('claims.yaml'))


def up(variables, log, check=True, shown=False):
    """The cloud as a leg needs it (``up`` with AIO_EXTRA_VARS).

    Its exit status; with ``check``, a failure ends the stage.  With
    ``shown``, its progress lines (a task a line, with the elapsed time)
    are printed as they come, besides the log.
    """
    argv = [sh.aio_cmd(), 'up']
    env = {'AIO_EXTRA_VARS': variables}
    if shown:
        rc = sh.tee(log, argv, env=env, stderr=subprocess.STDOUT)
    else:
        rc = sh.run_to(log, argv, both=True, check=False, env=env)
    if rc:
        message = ('`up` with %s failed (exit %d); see %s'
                   % (variables or 'the default configuration', rc, log))
        if check:
            sh.fail('conformance', message, rc)
        sh.echo('conformance: %s' % message, err=True)
    return rc


def up_inputs():
    """What `up` converges the cloud from, as one hash; None if unknown.

    Every file of the checkout that git lists (tracked or not, unless
    ignored) but the docs (.rst, .md) and release notes, and AIO_BASE_VARS,
    AIO_EXTRA_VARS and AIO_PYTHON.  None without git or a git checkout, and
    when a variable names something outside the checkout that `up` reads
    (a nova checkout as aio_nova_source, an @FILE of variables): its
    content is not hashed, so every verdict converges the cloud again.
    """
    words = ' '.join(os.environ.get(name, '') for name in (
        'AIO_BASE_VARS', 'AIO_EXTRA_VARS')).split()
    local = ('aio_nova_source=reference', 'aio_nova_source=pypi')
    if any(w.startswith('@') or (w.startswith('aio_nova_source=')
                                 and w not in local) for w in words):
        return None
    try:
        names = subprocess.run(
            ['git', 'ls-files', '-z', '-co', '--exclude-standard'],
            cwd=pending_aio.REPO, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, check=True).stdout.split(b'\0')
    except (OSError, subprocess.CalledProcessError):
        return None
    digest = hashlib.sha256()
    for name in sorted(n for n in names if n and not n.startswith(
            (b'doc/', b'releasenotes/')) and not n.endswith(
                (b'.rst', b'.md'))):
        digest.update(name + b'\0')
        try:
            with open(os.path.join(pending_aio.REPO.encode(), name),
                      'rb') as f:
                digest.update(hashlib.sha256(f.read()).digest())
        except OSError:
            digest.update(b'-')
    for name in ('AIO_BASE_VARS', 'AIO_EXTRA_VARS', 'AIO_PYTHON'):
        digest.update(os.environ.get(name, '').encode() + b'\0')
    return digest.hexdigest()


def up_needed(inputs):
    """Why the verdict needs an `up`, or None when the cloud is ready.

    Ready: the last `up` of a verdict converged it from exactly these
    inputs (cloud.up_record: any other `up` and a mutant remove it) and
    every program runs and answers (``tools/aio status``).
    """
    if inputs is None:
        return ('its inputs are unknown (no git checkout, or a nova '
                'checkout or a file of variables named in AIO_BASE_VARS)')
    try:
        with open(cloud.up_record()) as f:
            recorded = f.read().strip()
    except OSError:
        return 'no verdict\'s `up` is on record since the last change'
    if recorded != inputs:
        return 'the checkout or AIO_BASE_VARS changed since the last `up`'
    if sh.run([sh.aio_cmd(), 'status'], check=False,
              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
        return 'a program of the cloud does not run or answer'
    return None


def verdict_up():
    """The `up` of a verdict, when needed; its seconds."""
    t0 = time.time()
    inputs = up_inputs()
    why = up_needed(inputs)
    if why is None:
        sh.echo('conformance: the cloud is as the last verdict\'s `up` '
                'left it (same inputs, every program answers): no `up`')
        return round(time.time() - t0, 1)
    sh.echo('conformance: `up`: %s' % why)
    log = sh.path('logs', 'up-conformance.log')
    rc = up('', log, check=False, shown=True)
    if rc:
        sh.fail('conformance', '`up` failed (exit %d), see %s' % (rc, log),
                2)
    if inputs is not None:
        with open(cloud.up_record(), 'w') as f:
            f.write(inputs + '\n')
    return round(time.time() - t0, 1)


class LegRun(object):
    """One leg's ``pending-conformance run``, started in the background.

    The default leg's output goes to the console, the others' to
    .aio/logs/conformance-NAME.log (they run beside it).
    """

    def __init__(self, leg, mode, serial_done=None):
        self.leg = leg
        self.name = leg_name(claims_file(leg))
        self.out = sh.path('conformance', self.name)
        self.log = None
        self.started = self.ended = None
        self.rc = None
        shutil.rmtree(self.out, ignore_errors=True)
        args = leg_args(leg) + (['--serial-done', serial_done]
                                if serial_done else [])
        # The legs that run part of the suite: certify mode would fail them
        # for the requirements they leave to the default leg; the merge
        # certifies the rows of all legs (merge --mode).
        self.argv = run_argv(self.name, self.out,
                             mode if not leg.plane else 'explore', args,
                             workspace(leg))

    def start(self):
        kwargs = {}
        if self.leg.plane:
            self.log = sh.log_dir(sh.path('logs', 'conformance-%s.log'
                                          % self.name))
            kwargs['stdout'] = open(self.log, 'w')
            kwargs['stderr'] = subprocess.STDOUT
        self.started = time.time()
        sh.echo('conformance: leg %s started%s' % (
            self.name, ' (its output: %s)' % self.log if self.log else ''))
        try:
            self.proc = sh.start(self.argv, env={
                'OS_CLIENT_CONFIG_FILE': sh.path('clouds.yaml')}, **kwargs)
        finally:
            if 'stdout' in kwargs:
                kwargs['stdout'].close()

    def wait(self):
        self.rc = self.proc.wait()
        self.ended = time.time()
        sh.echo('conformance: leg %s: run %.1f s, exit %d'
                % (self.name, self.ended - self.started, self.rc))
        if self.log:
            # Its verdict and what failed, from its log.
            for line in sh.grep(r'^(certified|explored|this run|VERDICT|'
                                r'  - )', self.log) or []:
                sh.echo('  %s' % line.decode(errors='replace').rstrip())
        return self.rc

    @property
    def report(self):
        report = os.path.join(self.out, 'report.json')
        if self.rc in (0, 1) and os.path.isfile(report):
            return report
        return None


def wait_for(path, proc, poll=0.5):
    """Until the file ``path`` exists or ``proc`` has ended."""
    while not os.path.exists(path) and proc.poll() is None:
        time.sleep(poll)


def all_legs(mode, legs=LEGS):
    """Every leg of ``legs``, then the merged report (its status).

    One ``up`` (the default cloud, its control planes included), then the
    default leg's run; once its serial phase has ended (no compute stopped
    or disabled any more: ``run --serial-done``), the other legs' runs
    start beside its parallel phase, each through its own control plane.
    """
    failed, times = [], []
    sh.echo('conformance: the cloud, with its control planes (%s)'
            % ', '.join(sorted(PLANES)))
    t0 = time.time()
    up_seconds = verdict_up()
    done = sh.path('conformance', 'serial-done')
    runs = []
    for leg in legs:
        missing = unclaimed(leg)
        if missing:
            failed.append('%s: %s does not claim %s' % (
                leg.plane or 'the default cloud', tempest_conf(leg),
                ', '.join(missing)))
            continue
        runs.append(LegRun(leg, mode,
                           serial_done=done if not leg.plane else None))
    first = [r for r in runs if not r.leg.plane]
    others = [r for r in runs if r.leg.plane]
    for index, run in enumerate(first + others, 1):
        sh.echo('conformance: leg %d of %d: %s (%s)'
                % (index, len(runs), run.leg.decides, run.name))
    if os.path.exists(done):
        os.remove(done)
    started = []
    try:
        for run in first:
            os.makedirs(sh.path('conformance'), exist_ok=True)
            run.start()
            started.append(run)
            wait_for(done, run.proc)
        if first and not os.path.exists(done):
            # The default leg ended (or died) before its serial phase did:
            # a compute may still be stopped or disabled.
            for run in others:
                failed.append('%s: not run, the default leg ended before its '
                              'serial phase did' % run.name)
            others = []
        for run in others:
            run.start()
            started.append(run)
        waiting = list(started)
        while waiting:
            # In the order they end (each one's end time its own).
            for run in [r for r in waiting if r.proc.poll() is not None]:
                run.wait()
                waiting.remove(run)
            if waiting:
                time.sleep(0.5)
    finally:
        # Interrupted: no run of ours goes on against the cloud.
        for run in started:
            if run.proc.poll() is None:
                sh.stop(run.proc)
    for run in started:
        times.append({'leg': run.name, 'up_seconds': up_seconds,
                      'run_seconds': round(run.ended - run.started, 1),
                      'started_seconds': round(run.started - t0, 1),
                      'exit': run.rc})
        if run.report is None:
            failed.append('%s (exit %d)' % (run.name, run.rc))
    if os.path.exists(done):
        os.remove(done)
    # Merged in the order of LEGS: where legs decide a row alike, the
    # default cloud's leg names it.
    by_leg = dict((run.leg, run.report) for run in started)
    outs = [by_leg[leg] for leg in legs if by_leg.get(leg)]
    if not outs:
        sh.fail('conformance', 'no leg could run: %s' % ', '.join(failed), 2)
    merged = sh.path('conformance', 'merged')
    shutil.rmtree(merged, ignore_errors=True)
    os.makedirs(merged)
    # Each leg's run seconds (the one `up` in each) and exit status
    # (bench-verdicts), and the whole verdict's.
    times.append({'leg': 'verdict', 'up_seconds': up_seconds,
                  'run_seconds': round(time.time() - t0 - up_seconds, 1),
                  'exit': 0 if not failed else 2})
    with open(os.path.join(merged, 'legs.json'), 'w') as f:
        json.dump(times, f, indent=1)
    sh.echo('conformance: the legs merged (each row names the leg that '
            'decided it)')
    merge = sh.pending_conformance_argv(
        'merge', '--mode', mode, '--output',
        os.path.join(merged, 'report.json'), *outs)
    rc = sh.tee(os.path.join(merged, 'report.txt'), merge)
    sh.echo('pending-conformance: merged report in %s' % merged)
    if failed:
        sh.fail('conformance', 'a leg could not run: %s' % ', '.join(failed),
                2)
    raise SystemExit(rc)


def main(argv):
    sh.setup()
    mode = os.environ.get('CONFORMANCE_MODE') or 'explore'
    # Arguments for `run`, or AIO_EXTRA_VARS (a configuration of the
    # caller's choosing): one run on the cloud as it is asked for.
    legs = os.environ.get('CONFORMANCE_LEGS') or (
        'default' if argv or os.environ.get('AIO_EXTRA_VARS') else 'all')
    if legs not in ('all', 'default'):
        sh.fail('conformance', "CONFORMANCE_LEGS is 'all' or 'default', "
                "not '%s'" % legs, 2)
    if legs == 'all':
        if argv:
            sh.fail('conformance', 'arguments for `run` go with '
                    'CONFORMANCE_LEGS=default (each leg has its own '
                    'regex)', 2)
        return sh.run_stage(lambda: all_legs(mode))
    rc = sh.run_stage(lambda: sh.aio('up'))
    if rc:
        return rc
    leg = os.environ.get('CONFORMANCE_LEG') or leg_name()
    out = sh.path('conformance', leg)
    shutil.rmtree(out, ignore_errors=True)
    cmd = run_argv(leg, out, mode, argv)
    env = dict(os.environ, OS_CLIENT_CONFIG_FILE=sh.path('clouds.yaml'))
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(cmd[0], cmd, env)
    except OSError as exc:
        sh.echo('%s: %s' % (cmd[0], exc.strerror), err=True)
        return 127


def report(json_file, ws=None, mode=None, quiet=False):
    """``stestr last --subunit | python -m ...runner.report``.

    Of the workspace ``ws`` (default: nova's own control services'), in
    ``mode`` (default explore); ``quiet``: the report is not printed.  Its
    status under pipefail: the last command's failure, else the first's.
    """
    json_file = os.path.realpath(json_file)
    tempest = ws or sh.path('tempest')
    sys.stdout.flush()
    stestr = subprocess.Popen([sh.path('venvs', 'tools', 'bin', 'stestr'),
                               'last', '--subunit'],
                              cwd=tempest, stdout=subprocess.PIPE)
    rep = subprocess.Popen(
        [sh.tools_python(), '-m', 'pending_tempest_plugin.runner.report',
         '--tempest-conf', os.path.join(tempest, 'etc', 'tempest.conf'),
         '--json', json_file] + (['--mode', mode] if mode else []),
        cwd=tempest, stdin=stestr.stdout,
        stdout=subprocess.DEVNULL if quiet else None)
    stestr.stdout.close()
    rc = rep.wait()
    return rc or stestr.wait()


def report_main(argv):
    if len(argv) < 1:
        sys.exit('usage: python -m pending_aio conformance-report JSON-FILE')
    sh.setup()
    return report(argv[0])
