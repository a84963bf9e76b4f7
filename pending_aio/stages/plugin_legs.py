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
"""The plugin's conformance suite on the embedded cloud, leg by leg.

``python -m pending_aio functional-plugin`` (``tools/functional-plugin``,
``tox -e mutants``): part of the functional stage, runnable on its own
against a running embedded cloud: the mutants of the reference nova, the
plugin's conformance suite (every host_status policy profile in one run)
under each quota counting mode, the reference nova with use_pending_state
off, stock nova; the proof that a wrong claim fails; the check that nothing
is left behind.

FUNCTIONAL_LEGS selects the legs (default: all of them, always in the order
of :data:`LEGS`); PLUGIN_REGEX replaces the whole suite's regex;
MUTANT_BATCHES (batch numbers, one-based) runs some mutant batches only;
FUNCTIONAL_RESTORE=0 leaves the cloud as the last leg made it.  AIO_CMD:
the tools/aio to switch profiles with.
"""

import json
import os
import re
import shutil
import subprocess
import threading

from pending_aio.cloud import ssh_target
from pending_aio import sh
from pending_aio.stages import conformance
from pending_aio import topology

# In the order they run, so that the cloud changes least: the mutants
# leg's batches run on the default cloud (admin_only, quota counted in the
# database, use_pending_state on) as the functional stage leaves it, the
# profiles leg starts on it too (after the mutants' last profile switch
# puts admin_only back), and the pending-off leg runs through its own
# control plane; the stock leg needs a purged cloud when the reference nova
# has run on it (see leg_stock), so it is last, unless the functional
# stage runs it first on a new cloud.
LEGS = ('mutants', 'profiles', 'pending-off', 'stock')

# The plugin's own suite.  The whole suite runs on the default cloud:
# host_status under admin_only through nova-api, and under admin_or_owner
# and unknown_only through the nova-api of each (the seed claims them as
# host_status_profile_services): every host_status test checks the three
# profiles in one pass.  A profile switch (the mutant batches') only
# rewrites nova's policy file and tempest.conf: nova-api re-reads the
# policy without a restart.  Each quota recheck test checks db counting
# through nova-api, then unified limits through the control plane
# unified-limits' (the seed claims it as quota_counting_services).  The
# partial leg runs through the cloud's control plane pending-off (no
# switch); it is tox -e conformance's (conformance.PENDING_OFF_LEG: its
# plane, claims and regex).
PLUGIN_REGEX = conformance.SUITE_REGEX
# One class per feature: what a wrong claim must fail (a whole class,
# class setup included, rather than the feature's every test).
COMPUTE = 'pending_tempest_plugin.tests.api.compute.'
PENDING_CLASS = COMPUTE + 'test_pending_state.PendingStateTest'
CELL0_REBUILD_CLASS = COMPUTE + 'test_cell0_rebuild.Cell0RebuildTest'
QUOTA_CLASS = COMPUTE + 'test_cell0_rebuild.Cell0RebuildQuotaTest'
HS_CLASS = COMPUTE + 'test_host_status.HostStatusTest'
# Every class a leg or a wrong claim of this module names (a unit test
# checks each is in the suite).
CLASSES = (PENDING_CLASS, CELL0_REBUILD_CLASS, QUOTA_CLASS, HS_CLASS)
PENDING_CLASS_REGEX = conformance.classes_regex(PENDING_CLASS)
# The plane that counts quota with unified limits (group_vars
# aio_nova_planes), whose endpoint the wrong quota claim misdescribes.
UNIFIED_LIMITS_PLANE = next(
    plane['name'] for plane in topology.group_vars()['aio_nova_planes']
    if plane.get('quota_counting') == 'unified_limits')
QUOTA_PASSED = r'test_rebuild_quota_recheck.* \.\.\. ok'
SKIPPED = r'\.\.\. SKIPPED'
NAMES_AN_OPTION = r'\[[a-z_-]+\] [a-z_]+'


def chosen(legs=None):
    """The legs FUNCTIONAL_LEGS names (default: all), in LEGS' order.

    A word that names no leg is an error (exit 2), not a leg run silently.
    """
    if legs is None:
        legs = os.environ.get('FUNCTIONAL_LEGS') or ' '.join(LEGS)
    unknown = set(legs.split()) - set(LEGS)
    if unknown:
        sh.fail('functional', 'FUNCTIONAL_LEGS names no leg: %s (legs: %s)'
                % (' '.join(sorted(unknown)), ' '.join(LEGS)), 2)
    return [leg for leg in LEGS if leg in legs.split()]


def selected(leg, legs=None):
    """The leg is one of the words of FUNCTIONAL_LEGS (default: all)."""
    return leg in chosen(legs)


def batch_selected(index, batches):
    """Batch INDEX runs: MUTANT_BATCHES is empty or names it."""
    return not batches or ' %d ' % index in ' %s ' % batches


def batches(listing):
    """(profile, names) of each line of ``mutant list --batches``."""
    for line in listing.splitlines():
        words = line.split()
        yield (words[0] if words else ''), words[1:]


def tempest_conf():
    return sh.path('tempest', 'etc', 'tempest.conf')


def switch_profile(profile, quota='db'):
    """The host_status policy profile and nova's quota counting mode.

    On the reference nova with use_pending_state on (an `up` without
    aio_use_pending_state puts it back).  nova-api re-reads the policy
    file; the quota counting mode is db by default, another mode rewrites
    nova.conf and restarts nova's control services (not the computes).
    No `up` when tempest.conf already claims all of it.
    """
    sh.echo('-- host_status policy profile %s, quota counting %s'
            % (profile, quota))
    extra = 'aio_host_status_policy_profile=%s aio_quota_counting=%s' % (
        profile, quota)
    if all(sh.grep_q(pattern, tempest_conf()) == 0
           for pattern in conformance.claimed(extra)):
        return
    switch_cloud(extra, 'profile-%s-%s' % (profile, quota))


def switch_cloud(variables, name):
    """``up`` with AIO_EXTRA_VARS ``variables`` (log: up-NAME.log).

    Then their claims checked in tempest.conf, the options they leave at
    the default cloud's value included (conformance.claimed).
    """
    sh.run_to(sh.path('logs', 'up-%s.log' % name), [sh.aio_cmd(), 'up'],
              env={'AIO_EXTRA_VARS': variables})
    conf = tempest_conf()
    for pattern in conformance.claimed(variables):
        sh.need(pattern, conf)


plugin_argv = sh.tempest_run_argv


def run_plugin(*args, **kwargs):
    """``tempest run --concurrency 2 ARGS`` in the cloud's workspace.

    In two phases: serial classes first (sh.tempest_run_argv).
    """
    return sh.run(plugin_argv(*args), cwd=sh.path('tempest'), **kwargs)


def tee_plugin(log, *args, **kwargs):
    """``run_plugin ARGS | tee LOG`` under pipefail.

    ``cwd``: the workspace (default: nova's own control services').
    """
    rc = sh.tee(log, plugin_argv(*args),
                cwd=kwargs.get('cwd') or sh.path('tempest'))
    if rc:
        sh.record_failures(log)
        raise SystemExit(rc)


def plane_workspace(leg):
    """The workspace of a leg's control plane, its claims checked."""
    return conformance.checked_workspace(leg, 'functional', full=True)


def report(name, ws=None):
    rc = conformance.report(sh.path('logs', 'conformance-report-%s.json'
                                    % name), ws)
    if rc:
        raise SystemExit(rc)


# The first line of a certify verdict of the embedded cloud: its plugin is
# installed from the checkout, a development build.
DEV = 'certified (development build, not certifiable): '


def certified(name, want, ws=None):
    """The last run's report in certify mode names the scopes ``want``.

    Its first line (conformance.verdict.scope_line) is printed.
    """
    path = sh.path('logs', 'conformance-certify-%s.json' % name)
    conformance.report(path, ws, mode='certify', quiet=True)
    check_first_line(path, want)


def check_first_line(path, want):
    with open(path) as f:
        rep = json.load(f)
    line = rep['verdict']['lines'][0]
    if line != want:
        sh.fail('functional', 'the certify verdict of %s says %r, not %r; '
                'its scopes: %s' % (path, line, want, '; '.join(
                    '%s %s (%s)' % (s['name'], s['status'],
                                    ', '.join(s['reasons']))
                    for s in rep.get('scopes') or ())))
    sh.echo('ok: %s' % line)


def judge_wrong_claim(name, rc, log, pattern):
    """A run with a wrong claim failed (RC), every test of it, saying PATTERN.

    A test that passed or skipped under the wrong claim would hide behind
    the others' failures: each one must fail.
    """
    if rc == 0:
        sh.fail('functional', 'tests passed although tempest.conf '
                'misdescribes the cloud (%s); see %s' % (name, log))
    passed = sh.grep(r'\.\.\. (ok|SKIPPED)', log)
    if passed:
        sh.echo('functional: these tests did not fail although tempest.conf '
                'misdescribes the cloud (%s):' % name, err=True)
        sh.write_lines(passed, err=True)
        raise SystemExit(1)
    found = sh.grep(pattern, log, fixed=True)
    if not found:
        sh.fail('functional', "the failure of %s does not say '%s'; see %s"
                % (name, pattern, log))
    sh.write_lines(found[:1])


class WrongClaim(object):
    """Tests with a tempest.conf that misdescribes the cloud must fail.

    A suite that cannot fail proves nothing: the tests of ``regex`` run with
    the tempest.conf of ``ws`` (default: nova's own control services'
    workspace) changed by ``edits`` (as :func:`sh.sed`); they must fail,
    saying ``pattern``.  Each runs in a workspace of its own
    ($AIO_DIR/wrong-claims/NAME: the copied tempest.conf and .stestr.conf,
    its own stestr repository and tempest.log), so that several run at
    once (:func:`expect_fail_together`).
    """

    def __init__(self, name, edits, regex, pattern, ws=None):
        self.name, self.edits = name, edits
        self.regex, self.pattern = regex, pattern
        self.ws = ws or sh.path('tempest')
        self.log = sh.path('logs', 'expect-fail-%s.log' % name)
        self.rc = None
        self.error = None

    def prepare(self):
        own = sh.path('wrong-claims', self.name)
        if os.path.isdir(own):
            shutil.rmtree(own)
        os.makedirs(os.path.join(own, 'etc'))
        os.makedirs(os.path.join(own, 'logs'))
        shutil.copy(os.path.join(self.ws, '.stestr.conf'), own)
        conf = os.path.join(own, 'etc', 'tempest.conf')
        # Its tempest.log in its own folder too (Tempest's lock_path stays
        # the cloud's: one lock for every run on it).
        sh.sed(os.path.join(self.ws, 'etc', 'tempest.conf'), conf,
               *(list(self.edits) + [(r'^log_dir = .*', 'log_dir = %s'
                                      % os.path.join(own, 'logs'))]))
        return own, conf

    def run(self):
        # In a thread: what went wrong is kept for judge().
        try:
            own, conf = self.prepare()
            self.rc = sh.run_to(self.log, plugin_argv(
                '--config-file', conf, '--regex', self.regex), both=True,
                check=False, cwd=own)
        except BaseException as exc:
            self.error = exc

    def judge(self):
        sh.echo('-- a wrong claim (%s) must fail' % self.name)
        if self.error is not None:
            sh.fail('functional', 'the run of the wrong claim %s did not '
                    'complete: %r' % (self.name, self.error))
        judge_wrong_claim(self.name, self.rc, self.log, self.pattern)


def expect_fail_together(claims):
    """Every :class:`WrongClaim` of ``claims`` at once, then each judged.

    Each is a run of one class or a few tests, mostly waiting on the
    cloud: together they take about as long as the longest (measured:
    doc/source/data/code-timings.yaml, wrong_claims_at_once).  Judged in
    order, once all have ended.
    """
    run_together(claims)
    for claim in claims:
        claim.judge()


def run_together(claims):
    """Every :class:`WrongClaim` of ``claims`` run at once, all ended."""
    threads = [threading.Thread(target=claim.run, name=claim.name)
               for claim in claims]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def no_change(log, message, *context):
    """The play recap of LOG changed nothing, else the changes and exit 1.

    One recap, read as ssh-converge reads its own (ssh_target.recap).
    """
    with open(log, errors='replace') as f:
        result = ssh_target.recap(f.read())
    if result is None:
        sh.fail('functional', '%s has no play recap, or more than one (did '
                'the play stop early?)' % log)
    if result != (0, 0, 0):
        sh.echo('functional: %s' % message, err=True)
        sh.run(['grep'] + list(context) + ['^changed', log], stdout=2)
        raise SystemExit(1)


class CheckModeUp(threading.Thread):
    """``up --check --diff`` in the background; :meth:`judge` after.

    Beside the wrong claims (FUNCTIONAL_CHECK_MODE=1, the functional
    stage's): once every leg has run, the cloud is as ``up`` made it (the
    mutants restored, the default profile back), so check mode must report
    no change; and the wrong claims mostly wait on the cloud, which leaves
    it the CPU (measured: doc/source/data/code-timings.yaml,
    check_mode_beside_wrong_claims).
    """

    def __init__(self):
        super(CheckModeUp, self).__init__(name='up-check')
        self.log = sh.path('logs', 'up-check.log')
        self.rc = None

    def run(self):
        # sh.run_to: exit 127, said on stderr, when the command is missing.
        self.rc = sh.run_to(self.log, [sh.aio_cmd(), 'up', '--check',
                                       '--diff'], both=True, check=False,
                            stdin=subprocess.DEVNULL)

    def judge(self):
        sh.echo('-- up --check --diff once every leg has run reports no '
                'change')
        sh.write_lines(sh.read_lines(self.log)[-2:])
        if self.rc != 0:
            sh.fail('functional', 'up --check --diff failed (exit %s); see '
                    '%s' % (self.rc, self.log))
        no_change(self.log, 'up --check --diff would change something:',
                  '-B3', '-A20')


def clean():
    sh.echo('-- nothing left behind, every compute restored')
    sh.pending_aio('check-clean')


def plant_orphan_trait():
    """An orphan trigger trait before the suite, which must sweep it.

    nova-compute re-creates deleted trigger traits from its provider cache
    (pending_tempest_plugin/common/novalidhost.py); clean() fails if the
    orphan is still there.
    """
    sh.echo('-- an orphan trigger trait, as nova-compute re-creates them')
    sh.pending_aio('fixtures', 'orphan-trait', tempest_conf())


def placement_log_size():
    """Where placement's access log ends now (bytes)."""
    return os.path.getsize(sh.path('logs', 'placement.log'))


def trait_writes_checked(offset):
    """Tempest's trait writes since ``offset`` went to capacity_hosts."""
    sh.echo('-- trait writes only to the claimed capacity_hosts')
    sh.pending_aio('check-trait-writes', str(offset))


def quota_tests_passed(mode, log):
    """The three quota recheck tests passed (not skipped) in a run's log."""
    found = sh.grep(QUOTA_PASSED, log)
    passed = '' if found is None else str(len(found))
    if passed != '3':
        sh.fail('functional', '%s of the 3 quota recheck tests passed with '
                'quota counting %s; see %s' % (passed, mode, log))


def skips_name_options(log):
    """Every skip of a run must come from configuration, naming it."""
    option = re.compile(NAMES_AN_OPTION.encode())
    bad = [line for line in sh.grep(SKIPPED, log) or []
           if not option.search(line)]
    if bad:
        sh.echo('functional: skips that do not name an option:', err=True)
        sh.write_lines(bad, err=True)
        raise SystemExit(1)


def leg_profiles():
    sh.stage('conformance suite, profile admin_only and the endpoints of '
             'admin_or_owner and unknown_only')
    switch_profile('admin_only')
    # Its claims name the other profiles' and the other quota counting
    # mode's endpoints (without them rows would be decided nowhere).
    conformance.checked_workspace(conformance.DEFAULT_LEG, 'functional',
                                  full=True)
    plant_orphan_trait()
    regex = os.environ.get('PLUGIN_REGEX') or PLUGIN_REGEX
    log = sh.path('logs', 'suite-admin_only.log')
    offset = placement_log_size()
    tee_plugin(log, '--regex', regex)
    if regex == PLUGIN_REGEX:
        # Each recheck test checks db counting, then unified limits.
        quota_tests_passed('db and unified_limits', log)
        trait_writes_checked(offset)
    report('admin_only')
    clean()
    # Its wrong claims are run by the caller: with the pending-off leg's,
    # when that leg runs too.
    return profile_wrong_claims()


def profile_wrong_claims():
    """The wrong claims of the profiles leg (:class:`WrongClaim`)."""
    return [
        # The endpoints swapped: each profile's tests read the other's
        # nova-api.
        WrongClaim('profile-services', [(
            r'^host_status_profile_services = .*',
            'host_status_profile_services = %s'
            % conformance.profile_services('admin_only', swapped=True))],
            conformance.classes_regex(HS_CLASS) + 'test_up_visibility',
            # Only the admin_or_owner nova-api, read as unknown_only's,
            # shows an UP host_status to the owner: a profile client that
            # fell back to the main (admin_only) endpoint would not.
            'over-permission for persona owner_member under policy profile '
            'unknown_only'),
        # The cloud's own profile misdescribed (no other endpoint claimed).
        WrongClaim('profile', [
            (r'^host_status_policy_profile = .*',
             'host_status_policy_profile = admin_or_owner'),
            sh.delete_line('host_status_profile_services')],
            conformance.classes_regex(HS_CLASS) + 'test_up_visibility',
            'under-permission for persona owner_member under policy profile '
            'admin_or_owner'),
        # The other quota counting mode's endpoint misdescribed: the quota
        # recheck through the plane unified-limits, read as counted by
        # placement, sets nova's quota (which unified limits ignore), and
        # the rebuild builds the server.  A test that fell back to the
        # cloud's own endpoint (db counting, as placement's quota sets)
        # would pass.
        WrongClaim('quota-services', [(
            r'^quota_counting_services = .*',
            'quota_counting_services = placement:%s'
            % conformance.service_type(UNIFIED_LIMITS_PLANE))],
            conformance.classes_regex(QUOTA_CLASS)
            + r'test_rebuild_quota_recheck\[',
            # (testtools wraps the rest: "(cores quota 0, counted by
            # placement, nova-api of service type compute-<plane>)".)
            'although the quota did not allow it')]


class WrongClaimsBeside(object):
    """Wrong claims run in the background; :meth:`join`, :meth:`judge`.

    With FUNCTIONAL_CHECK_MODE=1 and ``check_mode`` (the stock leg's: not),
    :class:`CheckModeUp` too.  Beside the pending-off and stock legs' own
    runs: each wrong claim runs in a workspace of its
    own, creates what it needs in projects of its own and deletes it, and
    mostly waits on the cloud (measured:
    doc/source/data/code-timings.yaml, wrong_claims_beside_pending_off).
    """

    def __init__(self, claims, check_mode=True):
        self.claims = claims
        self.check = None
        if check_mode and os.environ.get('FUNCTIONAL_CHECK_MODE') == '1':
            self.check = CheckModeUp()
        self.thread = threading.Thread(
            target=self._claims, name='wrong-claims')
        self.error = None

    def _claims(self):
        try:
            run_together(self.claims)
        except BaseException as exc:
            self.error = exc

    def start(self):
        if self.check is not None:
            self.check.start()
        self.thread.start()

    def join(self):
        self.thread.join()
        if self.check is not None:
            self.check.join()

    def judge(self):
        if self.error is not None:
            sh.fail('functional', 'the wrong claims could not run: %r'
                    % (self.error,))
        for claim in self.claims:
            claim.judge()
        if self.check is not None:
            self.check.judge()


def wrong_claims(claims):
    """The wrong claims on the reference cloud, at once; then clean.

    With FUNCTIONAL_CHECK_MODE=1, :class:`CheckModeUp` beside them.
    """
    beside = WrongClaimsBeside(claims)
    sh.stage('wrong claims on the reference cloud (at once, each in a '
             'workspace of its own)%s' % (
                 ', up --check --diff beside them' if beside.check else ''))
    beside.start()
    beside.join()
    beside.judge()
    clean()


# The same from the other side: a cloud that misbehaves.  Each mutant of
# the reference nova (reference/nova/mutants/mutants.py, applied by
# python -m pending_aio mutant) is one deliberate bug; the tests named for
# it must fail, saying what was expected.  The mutants run in batches
# (mutant list --batches: disjoint tests, one profile, checked not to mask
# each other): a batch is applied at once, the union of its tests runs once,
# and each mutant is judged on the subunit results of its own tests (all
# failed, their failure text has its message).  The verdicts make the kill
# matrix (requirement -> mutants -> caught), printed at the end and saved in
# $AIO_DIR/logs/kill-matrix.{txt,json}.
def mutant_batch(index, profile, names):
    """Batch INDEX; False if a verdict failed."""
    log = sh.path('logs', 'mutants-batch-%d.log' % index)
    subunit = sh.path('logs', 'mutants-batch-%d.subunit' % index)
    # A bug only one host_status policy profile shows runs under it.
    switch_profile(profile)
    sh.echo('-- mutant batch %d: %s' % (index, ' '.join(names)))
    # In place of the previous batch: one restart, not two (the leg's trap
    # restores nova at its end).
    sh.pending_aio('mutant', 'apply', '--replace', *names)
    regex = sh.pending_aio_output('mutant', 'tests', *names, check=False)
    if not regex:
        # An empty regex would run every test of the workspace.
        sh.echo('functional: mutant batch %d: `mutant tests` named no test; '
                'the batch counts as not caught' % index, err=True)
        return False
    before = sh.next_run_id()
    rc = sh.run_to(log, plugin_argv('--regex', regex), both=True,
                   check=False, cwd=sh.path('tempest'))
    if sh.next_run_id() == before:
        # `stestr last` would be the previous batch's run.
        sh.echo('functional: mutant batch %d recorded no run (exit %d); '
                'see %s; the batch counts as not caught' % (index, rc, log),
                err=True)
        return False
    sh.last_run_to(subunit)
    return sh.pending_aio(
        'mutant', 'verdict', '--subunit', subunit,
        '--results', sh.path('logs', 'mutants-verdicts.jsonl'), *names,
        check=False) == 0


def restore_nova(rc):
    """The mutants leg's trap: nova as the series made it."""
    sh.pending_aio('mutant', 'restore')


def leg_mutants(trap):
    sh.stage('misbehaving clouds (mutants of the reference nova, in batches)')
    trap.set(restore_nova)
    verdicts = sh.path('logs', 'mutants-verdicts.jsonl')
    if os.path.lexists(verdicts):
        os.remove(verdicts)
    chosen = os.environ.get('MUTANT_BATCHES', '')
    ok = True
    listing = list(batches(sh.pending_aio_output('mutant', 'list',
                                                 '--batches')))
    unknown = set(chosen.split()) - set(
        str(i) for i in range(1, len(listing) + 1))
    if unknown:
        sh.fail('functional', 'MUTANT_BATCHES names batches that do not '
                'exist: %s (there are %d)' % (' '.join(sorted(unknown)),
                                              len(listing)), 2)
    # The mutants of the cross-cell tests need nova in two cells
    # (aio_nova_two_cells); on a cloud of one cell their tests skip, so
    # their batches are not run there, and say so.
    two_cells = set(sh.pending_aio_output('mutant', 'list',
                                          '--two-cells').split())
    one_cell = not os.path.exists(sh.path('etc', 'nova', 'nova-cell2.conf'))
    partial = bool(chosen)
    for index, (profile, names) in enumerate(listing, 1):
        if not batch_selected(index, chosen):
            continue
        if one_cell and two_cells & set(names):
            sh.echo('-- mutant batch %d: %s: not run, its tests need nova '
                    'in two cells (aio_nova_two_cells=true)'
                    % (index, ' '.join(names)))
            partial = True
            continue
        with sh.stdin_null():
            ok = mutant_batch(index, profile, names) and ok
    sh.pending_aio('mutant', 'restore')
    trap.clear()
    sh.stage('kill matrix (requirement, mutant, caught)')
    # MUTANT_BATCHES runs some batches only, and a cloud of one cell not
    # the two-cell batches: the mutants not run show as such and do not
    # fail the leg.
    if sh.pending_aio('mutant', 'matrix', '--results', verdicts,
                      '--out-dir', sh.path('logs'),
                      *(['--partial'] if partial else []), check=False):
        ok = False
    # The default profile back and nothing left behind, caught or not.
    switch_profile('admin_only')
    clean()
    if not ok:
        sh.fail('functional', 'a mutant was not caught or a verified '
                'requirement has no mutant; see the kill matrix above and '
                '%s' % sh.path('logs', 'mutants-batch-*.log'))


def leg_pending_off(claims=()):
    """The partial leg, with its wrong claim and ``claims`` beside it."""
    sh.stage('reference nova with use_pending_state = False, quota counted '
             'in placement (control plane pending-off); beside it, the wrong '
             'claims on the reference cloud (at once, each in a workspace '
             'of its own)%s' % (
                 ', up --check --diff'
                 if os.environ.get('FUNCTIONAL_CHECK_MODE') == '1' else ''))
    # The feature tests include the quota recheck tests: they run here under
    # the second quota counting mode (tox -e conformance's legs,
    # conformance.LEGS).
    leg = conformance.PENDING_OFF_LEG
    ws = plane_workspace(leg)
    log = sh.path('logs', 'pending-off.log')
    # The PENDING tests are enough to show the claim is checked: every
    # feature test fails under it, so running them all shows nothing more
    # (measured: doc/source/data/code-timings.yaml,
    # stages_plugin_legs_pending_on).
    beside = WrongClaimsBeside(list(claims) + [WrongClaim(
        'pending-on', [(r'^pending_state_enabled = .*',
                        'pending_state_enabled = true')],
        PENDING_CLASS_REGEX,
        'expected status PENDING / vm_state pending, got ERROR / error',
        ws=ws)])
    beside.start()
    try:
        tee_plugin(log, *conformance.leg_args(leg), cwd=ws)
    finally:
        # Their servers deleted before this leg's report looks for leaks.
        beside.join()
    skips_name_options(log)
    quota_tests_passed('placement', log)
    report('pending-off', ws)
    # With the suite's run under admin_only (the profiles leg), the
    # reference cloud's merged verdict certifies every scope.
    admin_only = sh.path('logs', 'conformance-report-admin_only.json')
    if os.path.isfile(admin_only):
        merged = sh.path('logs', 'conformance-certify-merged.json')
        sh.run(sh.pending_conformance_argv(
            'merge', '--mode', 'certify', '--output', merged, admin_only,
            sh.path('logs', 'conformance-report-pending-off.json')),
            stdout=subprocess.DEVNULL, check=False)
        check_first_line(merged, DEV + 'host-status, pending-state, '
                         'cell0-rebuild')
    beside.judge()
    clean()


def reference_ran():
    """The reference nova has run on the cloud's data (preflight's mark)."""
    return os.path.exists(sh.path('data', 'nova-reference-ran'))


def leg_stock():
    sh.stage('stock nova 34.0.0 (no PENDING state, no cell0 rebuild)')
    # Stock nova's services (version 74) refuse to run in a deployment that
    # the reference nova (75, 76) has already recorded: a new cloud then.  On a
    # new or a stock cloud, `up` alone (the functional stage runs this leg
    # first, on a new cloud, then upgrades it to the reference nova).
    if reference_ran():
        sh.aio('down', '--purge', stdout=subprocess.DEVNULL)
    sh.run_to(sh.path('logs', 'up-stock.log'), [sh.aio_cmd(), 'up'],
              env={'AIO_EXTRA_VARS': 'aio_nova_source=pypi'})
    # In the functional stage, a cold `up` (a new cloud): a person watching
    # it sees a line at least every 30 s, each with the elapsed time.
    sh.pending_aio('stage', 'progress-log', sh.path('logs', 'up-stock.log'))
    if sh.grep_q(r'^(pending_state|cell0_rebuild)_microversion',
                 tempest_conf()) == 0:
        sh.fail('functional', "stock nova's tempest.conf declares a feature "
                'microversion')
    log = sh.path('logs', 'stock.log')
    # The wrong claim (the series' features claimed of stock nova) beside
    # the leg's own run, as the pending-off leg runs its own: a workspace
    # and projects of its own; each test fails at its microversion check,
    # after making a trigger flavor and trait named with the run's prefix
    # (its tempest.conf is a copy): joined before the report looks for
    # leaks (measured: doc/source/data/code-timings.yaml,
    # stock_wrong_claim_beside).
    beside = WrongClaimsBeside([WrongClaim(
        'stock-claims-features',
        [sh.delete_line('pending_state_enabled'),
         (r'^\[nova_conformance\]$',
          '[nova_conformance]\n%s\npending_state_enabled = true'
          % '\n'.join('%s = %s' % claim for claim in sorted(
              topology.microversions().items())))],
        conformance.classes_regex(PENDING_CLASS, CELL0_REBUILD_CLASS),
        'but the API advertises')], check_mode=False)
    beside.start()
    try:
        tee_plugin(log, '--regex',
                   os.environ.get('PLUGIN_REGEX') or PLUGIN_REGEX)
    finally:
        # Its servers deleted before this leg's report looks for leaks.
        beside.join()
    skips_name_options(log)
    report('stock')
    certified('stock', DEV + 'host-status; not claimed: pending-state, '
              'cell0-rebuild')
    beside.judge()
    clean()


def cloud_running():
    """Whether the embedded cloud's supervisord runs."""
    try:
        with open(sh.path('run', 'supervisord.pid')) as f:
            os.kill(int(f.read().strip()), 0)
    except (OSError, ValueError):
        return False
    return True


# The legs that run on the cloud as it is; the stock leg brings up a cloud
# of its own (the functional stage runs it first, before any `up`).
ON_RUNNING_CLOUD = ('mutants', 'profiles', 'pending-off')


def body(trap):
    if (any(selected(leg) for leg in ON_RUNNING_CLOUD)
            and not cloud_running()):
        sh.fail('functional', 'the embedded cloud is not running (no '
                'supervisord): start it with tox -e aio; the plugin legs '
                'and tox -e mutants run on the running cloud', 2)
    if selected('mutants'):
        leg_mutants(trap)
    claims = []
    if selected('profiles'):
        claims = leg_profiles()
        if not selected('pending-off'):
            wrong_claims(claims)
    if selected('pending-off'):
        leg_pending_off(claims)
    if selected('stock'):
        leg_stock()
    if (os.environ.get('FUNCTIONAL_RESTORE') or '1') == '1':
        sh.stage('back to the default cloud (reference nova, '
                 'use_pending_state, admin_only)')
        sh.aio('down', '--purge', stdout=subprocess.DEVNULL)
        sh.run_to(sh.path('logs', 'up-restore.log'), [sh.aio_cmd(), 'up'])


def main(argv):
    sh.setup()
    trap = sh.Trap()
    return sh.run_stage(lambda: body(trap), trap)
