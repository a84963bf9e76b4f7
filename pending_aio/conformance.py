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
show: it runs each configuration leg of :data:`LEGS` (the whole suite on
the default cloud, and the tests that need another host_status policy
profile, quota counting mode or ``use_pending_state``), each as one
``up`` with the leg's variables (a profile switch rewrites the policy file;
a quota or PENDING switch restarts nova's control services, not the
computes) and one ``run``, the default cloud's last (its ``up`` puts that
cloud back), and merges the legs' reports with ``pending-conformance
merge``: each row names the leg that decided it::

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
names a single run's) and .aio/conformance/merged/ (report.json,
report.txt; legs.json: each leg's ``up`` and ``run`` seconds).  Every
leg's ``up`` takes AIO_BASE_VARS too (the nova to run...); AIO_EXTRA_VARS
is the leg's own.

``python -m pending_aio conformance-report JSON-FILE``
(``tools/conformance-report``): the conformance report (one line per
requirement of the catalogue) of the last Tempest run in the embedded
cloud's workspace; also written as JSON.
"""

import collections
import json
import os
import re
import shutil
import subprocess
import sys
import time

import pending_aio
from pending_aio import sh

# The suite and the parts of it that another configuration decides.
SUITE_REGEX = r'^pending_tempest_plugin\.tests\.'
HS_REGEX = r'^pending_tempest_plugin\.tests\.api\.compute\.test_host_status'
FEATURE_REGEX = (r'^pending_tempest_plugin\.tests\.(api\.compute\.test_'
                 r'(pending_state|cell0_rebuild)|scenario)')
QUOTA_REGEX = (r'^pending_tempest_plugin\.tests\.api\.compute\.'
               r'test_cell0_rebuild\.Cell0RebuildTest\.'
               r'test_rebuild_quota_recheck')

Leg = collections.namedtuple('Leg', 'variables regex decides weights')
# ``weights``: the leg's class weights (pending-conformance run --weights),
# or None for the suite's own: a partial leg skips classes and runs some of
# others' tests, and the suite's weights would split it unevenly.

# The legs of the full verdict, in the order their reports merge;
# :func:`run_order` runs the default cloud's last, so that its `up` puts
# that cloud back (each other leg's switch restarts nova's control
# services: its options are theirs).
# ``variables``: AIO_EXTRA_VARS of its `up` ('' is the default cloud).
# Three configurations are the fewest one nova-conductor can show: three
# quota counting modes (and use_pending_state off rides with one of them:
# the settings are independent).  The three host_status policy profiles
# need no leg: the default cloud serves each from a nova-api of its own
# (aio_host_status_profile_apis, claimed as [nova_conformance]
# host_status_profile_services), and each host_status test checks them
# all in one pass over each host state (one stopped compute for all three;
# issue 20).
DEFAULT_LEG = Leg(
    '', SUITE_REGEX, 'every requirement the default cloud shows '
    '(PENDING on; host_status under admin_only, admin_or_owner and '
    'unknown_only; quota counted in the database)', None)
PENDING_OFF_LEG = Leg(
    'aio_use_pending_state=false aio_quota_counting=placement',
    FEATURE_REGEX,
    'PEND-01 (use_pending_state off); the feature tests with failed '
    'builds in ERROR and the quota recheck counted in placement',
    pending_aio.data_file('class-weights-pending-off.yaml'))
UNIFIED_LIMITS_LEG = Leg(
    'aio_quota_counting=unified_limits', QUOTA_REGEX,
    'the quota recheck under unified limits', None)
# The functional stage's partial legs are these two (plugin_legs).
LEGS = (DEFAULT_LEG, PENDING_OFF_LEG, UNIFIED_LIMITS_LEG)

# What a leg's variables put in tempest.conf (the seed's claims), and the
# value of each on the default cloud (the reference nova): the checks that
# an `up` switched the cloud to a leg, the options the leg leaves alone
# included.
CLAIMED_BY = {
    'aio_host_status_policy_profile': ('host_status_policy_profile',
                                       'admin_only'),
    'aio_quota_counting': ('quota_counting', 'db'),
    'aio_use_pending_state': ('pending_state_enabled', 'true'),
}
# The host_status policy profiles the embedded cloud serves from a nova-api
# of their own (group_vars aio_host_status_profile_apis); the seed claims
# each but the cloud's own profile as [nova_conformance]
# host_status_profile_services, at catalog service type compute-PROFILE.
PROFILE_APIS = ('admin_or_owner', 'unknown_only')
# The seed writes booleans as true/false.
_BOOLEANS = {'true': 'true', 'yes': 'true', '1': 'true', 'on': 'true',
             'false': 'false', 'no': 'false', '0': 'false', 'off': 'false'}


def claimed(variables):
    """The tempest.conf lines (regexes) a leg's ``up`` must have written.

    One per variable of :data:`CLAIMED_BY`, the leg's value or the default
    cloud's; ValueError for another variable, so that a new leg variable
    gets its check.  For the reference nova (the seed claims PENDING off
    for stock nova whatever the variable).
    """
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
    lines = [r'^%s = %s$' % (CLAIMED_BY[name][0], re.escape(values[name]))
             for name in sorted(CLAIMED_BY)]
    # The other profiles' endpoints: without them the default leg would
    # decide the admin_or_owner and unknown_only rows nowhere.
    services = profile_services(values['aio_host_status_policy_profile'])
    if services:
        lines.append(r'^host_status_profile_services = %s$'
                     % re.escape(services))
    return lines


def profile_services(profile):
    """The seed's host_status_profile_services for a cloud's ``profile``."""
    return ','.join('%s:compute-%s' % (p, p) for p in PROFILE_APIS
                    if p != profile)


def leg_args(leg):
    """A leg's regex and class weights, as ``run`` arguments.

    For ``pending-conformance run`` and ``runner.phases`` alike.
    """
    return ['--regex', leg.regex] + (
        ['--weights', leg.weights] if leg.weights else [])


def run_argv(leg, out, mode, args):
    """The ``pending-conformance run`` of the embedded cloud's workspace."""
    return sh.pending_conformance_argv(
        'run', '--workspace', sh.path('tempest'), '--mode', mode, '--leg',
        leg, '--output', out, *args)


def leg_name():
    return sh.pending_aio_output('stage', 'leg', sh.path('claims.yaml'))


def run_leg(leg, out, mode, args):
    """``pending-conformance run`` into OUT; its exit status."""
    shutil.rmtree(out, ignore_errors=True)
    return sh.run(run_argv(leg, out, mode, args), check=False,
                  env={'OS_CLIENT_CONFIG_FILE': sh.path('clouds.yaml')})


def up(variables, log, check=True):
    """The cloud as a leg needs it (``up`` with AIO_EXTRA_VARS).

    Its exit status; with ``check``, a failure ends the stage.
    """
    rc = sh.run_to(log, [sh.aio_cmd(), 'up'], both=True, check=False,
                   env={'AIO_EXTRA_VARS': variables})
    if rc:
        message = ('`up` with %s failed (exit %d); see %s'
                   % (variables or 'the default configuration', rc, log))
        if check:
            sh.fail('conformance', message, rc)
        sh.echo('conformance: %s' % message, err=True)
    return rc


def run_order(legs=LEGS):
    """The legs in the order they run: the default cloud's leg last.

    Its ``up`` is then the one that puts the default cloud back, so a run
    that succeeds needs no ``up`` of its own for that (the trap does it
    only when a run stops before).
    """
    return [leg for leg in legs if leg.variables] + [
        leg for leg in legs if not leg.variables]


def all_legs(mode, trap=None):
    """Every leg of :data:`LEGS`, then the merged report (its status)."""
    reports, failed, times = {}, [], []
    order = run_order()
    for index, leg in enumerate(order, 1):
        sh.echo('conformance: leg %d of %d: %s'
                % (index, len(order), leg.decides))
        t0 = time.time()
        log = sh.path('logs', 'up-conformance-leg-%d.log' % index)
        # A leg whose cloud cannot come up is a failed leg; the others
        # still run (the default cloud's `up` comes last).
        rc = up(leg.variables, log, check=False)
        t1 = time.time()
        if rc:
            failed.append('%s: `up` failed (exit %d), see %s'
                          % (leg.variables or 'the default cloud', rc, log))
            times.append({'leg': leg.variables or 'default',
                          'up_seconds': round(t1 - t0, 1),
                          'run_seconds': 0.0, 'exit': rc})
            continue
        if trap is not None and not leg.variables:
            # The default cloud is back.
            trap.clear()
        name = leg_name()
        out = sh.path('conformance', name)
        # The legs that run part of the suite: certify mode would fail them
        # for the requirements they leave to the default leg; the merge
        # certifies the rows of all legs (merge --mode).
        rc = run_leg(name, out, mode if not leg.variables else 'explore',
                     leg_args(leg))
        times.append({'leg': name, 'up_seconds': round(t1 - t0, 1),
                      'run_seconds': round(time.time() - t1, 1),
                      'exit': rc})
        sh.echo('conformance: leg %s: up %.1f s, run %.1f s, exit %d'
                % (name, times[-1]['up_seconds'], times[-1]['run_seconds'],
                   rc))
        report = os.path.join(out, 'report.json')
        if rc not in (0, 1) or not os.path.isfile(report):
            failed.append('%s (exit %d)' % (name, rc))
        else:
            reports[leg] = report
    # Merged in the order of LEGS: where legs decide a row alike, the
    # default cloud's leg names it.
    outs = [reports[leg] for leg in LEGS if leg in reports]
    if not outs:
        sh.fail('conformance', 'no leg could run: %s' % ', '.join(failed), 2)
    merged = sh.path('conformance', 'merged')
    shutil.rmtree(merged, ignore_errors=True)
    os.makedirs(merged)
    # Each leg's `up` and `run` seconds and exit status (bench-verdicts).
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


def put_default_back(rc):
    sh.echo('conformance: the default cloud back')
    up('', sh.path('logs', 'up-conformance-default.log'))


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
        trap = sh.Trap(put_default_back)
        return sh.run_stage(lambda: all_legs(mode, trap), trap)
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


def report(json_file):
    """``stestr last --subunit | python -m ...conformance.report``.

    Its status under pipefail: the last command's failure, else the
    first's.
    """
    json_file = os.path.realpath(json_file)
    tempest = sh.path('tempest')
    sys.stdout.flush()
    stestr = subprocess.Popen([sh.path('venvs', 'tools', 'bin', 'stestr'),
                               'last', '--subunit'],
                              cwd=tempest, stdout=subprocess.PIPE)
    rep = subprocess.Popen(
        [sh.tools_python(), '-m', 'pending_tempest_plugin.conformance.report',
         '--tempest-conf', sh.path('tempest', 'etc', 'tempest.conf'),
         '--json', json_file], cwd=tempest, stdin=stestr.stdout)
    stestr.stdout.close()
    rc = rep.wait()
    return rc or stestr.wait()


def report_main(argv):
    if len(argv) < 1:
        sys.exit('usage: python -m pending_aio conformance-report JSON-FILE')
    sh.setup()
    return report(argv[0])
