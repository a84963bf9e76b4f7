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
"""pending-conformance on the embedded cloud treated as any cloud.

``python -m pending_aio functional-runner`` (``tools/functional-runner``):
part of the functional stage, runnable on its own against a running
embedded cloud.  Only .aio/clouds.yaml and .aio/claims.yaml are used, and
the runner's exit status is proven on the real cloud.  The passing subset
runs as an operator runs it: ``ansible-playbook playbooks/conformance.yaml``
becoming a non-root user (``pending-tester``, created when the stage runs
as root), installing the wheel ``tools/build`` (``tox -e build``) makes of
a clone of the checkout tagged with a version no release has, which the
run must report; it exits 0 and every artifact is fetched.  Then, with
the runner of this checkout: a regex that matches nothing exits 1 "nothing
verified"; a claim that lies exits 1 naming the requirement; a setUpClass
error fails the requirements of its class; a leaked server named with the
run's prefix is reported and fails certify.  The release's run is bundled
and signed, and verified (bad bundles refused); the setUpClass error is run
again with ``--rerun-failed`` and ``diff`` names what changed; mixed
reports are refused.  The passing subset runs with
pre-provisioned accounts (accounts.yaml with an admin), and a member-only
run (no admin account at all) decides what a member can and names every
admin requirement "needs admin".  In this order: the playbook in the
background; beside it, the devstack jobs' run, then the claim that lies
and its page in Chromium; the playbook judged and its run bundled; then
the setUpClass error and the rerun, the member-only run, nothing
verified, certify, and the leak last.
"""

import glob
import io
import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import tarfile

from pending_aio import checks
from pending_aio import REPO
from pending_aio import sh

SUBSET = (r'^pending_tempest_plugin\.tests\.api\.compute\.test_host_status\.'
          r'HostStatusTest\.test_(up_visibility|no_host_status_below_2_16)')
MEMBER_REGEX = (r'^pending_tempest_plugin\.tests\.api\.compute\.'
                r'(test_member_only|test_host_status\.HostStatusTest)')
VERDICT_PASS = r'^VERDICT: PASS \(explore\)'
NO_CA = (r"cannot authenticate to cloud 'member-appcred-tls-no-ca'.*"
         r"(CERTIFICATE_VERIFY_FAILED|certificate verify failed)")
# The version of the clone the playbook's run installs: no release has it,
# so a run that reports it ran the wheel of this checkout.
THROWAWAY_VERSION = '99.1.0'
# The non-root user the playbook's run becomes when the stage runs as root.
TESTER = 'pending-tester'
ARTIFACTS = ('results.subunit', 'results.xml', 'results.html', 'tempest.log',
             'tempest.conf', 'report.json', 'report.txt')


def fail(message):
    sh.fail('functional-runner', message)


pc_argv = sh.pending_conformance_argv


def pc(*args, **kwargs):
    return sh.run(pc_argv(*args), **kwargs)


def judge(want, rc, log, pattern, args):
    """``pc ARGS`` exited WANT (it exited RC) and LOG matches PATTERN.

    The first matching line is printed.
    """
    command = ' '.join(('pc',) + tuple(args))
    if rc != want:
        fail("'%s' exited %d, not %d; see %s" % (command, rc, want, log))
    found = sh.grep(pattern, log)
    if not found:
        fail("'%s' does not say '%s'; see %s" % (command, pattern, log))
    sh.write_lines(found[:1])


def expect(want, log, pattern, *args, **kwargs):
    """``pc ARGS`` exits WANT and its output (in LOG) matches PATTERN."""
    rc = sh.run_to(log, pc_argv(*args), both=True, check=False, **kwargs)
    judge(want, rc, log, pattern, args)


def non_empty(name):
    return os.path.exists(name) and os.path.getsize(name) > 0


class Runner(object):

    def __init__(self, trap):
        self.trap = trap
        self.base = sh.path('runner')
        self.tls = None

    def fixture(self, kind, action, tolerant=False, *args):
        """``pending_aio fixtures KIND ACTION BASE`` (``|| true``)."""
        return sh.pending_aio('fixtures', kind, action, *(args or (
            self.base,)), check=not tolerant)

    def remove_accounts(self, rc=None):
        self.fixture('accounts', 'remove', True)

    def remove_tls(self, rc=None):
        sh.stop(self.tls)
        self.fixture('appcred', 'remove', True)
        self.remove_accounts()

    def remove_leak(self, rc=None):
        self.fixture('leak', 'remove', True, self.prefix)
        self.remove_accounts()

    def run(self):
        base = self.base
        os.environ['OS_CLIENT_CONFIG_FILE'] = sh.path('clouds.yaml')
        claims = sh.path('claims.yaml')
        ws = base + '/ws'
        # Pre-provisioned accounts, as a cloud that forbids creating users
        # gives them: a member and a reader of one project, a member of
        # another (the personas), and, in accounts-admin.yaml, the admin.
        sh.run(['rm', '-rf', base])
        os.makedirs(base, exist_ok=True)
        self.fixture('accounts', 'remove')
        self.fixture('accounts', 'create')
        self.trap.set(self.remove_accounts)
        # The operator's playbook (its virtualenv built with pip; the
        # pre-provisioned admin account) and the devstack jobs' run (the
        # cloud's tempest.conf: dynamic credentials) at once: each its own
        # workspace, tests that only read (measured:
        # doc/source/data/code-timings.yaml, runner_playbooks_at_once).
        # The claim that lies and its page in Chromium next, beside the
        # playbook still: a workspace and projects of their own (dynamic
        # credentials), the playbook's run in its own (measured:
        # doc/source/data/code-timings.yaml, runner_lying_beside_playbook).
        finish = self.playbook(self.release_wheel())
        try:
            self.devstack_run()
            self.lying()
        except BaseException:
            finish(abandon=True)
            raise
        finish()
        sh.echo('-- init from clouds.yaml, claims.yaml and pre-provisioned '
                'accounts')
        pc('init', '--os-cloud', 'aio-admin', '--workspace', ws,
           '--claims', claims, '--accounts', base + '/accounts-admin.yaml')
        self.prefix = sh.pending_aio_output(
            'stage', 'prefix', ws + '/pending-conformance.json')
        self.rerun(ws)
        self.member()
        self.exit_statuses()
        sh.echo('functional-runner: OK')

    def release_wheel(self):
        """The wheel tools/build makes of a clone tagged THROWAWAY_VERSION."""
        release = self.base + '/release'
        sh.echo('-- the wheel of a clone of this checkout tagged %s '
                '(tools/build, as tox -e build)' % THROWAWAY_VERSION)
        sh.run(['git', 'clone', '--quiet', REPO, release + '/src'])
        sh.run(['git', '-C', release + '/src', 'tag', THROWAWAY_VERSION])
        log = release + '/build.log'
        if sh.run_to(log, ['bash', release + '/src/tools/build',
                           release + '/src', release + '/dist'],
                     both=True, check=False):
            fail('tools/build failed; see %s' % log)
        wheels = glob.glob(release + '/dist/*.whl')
        want = 'pending_tempest_plugin-%s-py3-none-any.whl' % (
            THROWAWAY_VERSION)
        if [os.path.basename(w) for w in wheels] != [want]:
            fail('tools/build made %s, not %s' % (
                ', '.join(os.path.basename(w) for w in wheels) or 'no wheel',
                want))
        return wheels[0]

    def tester(self):
        """The user the playbook becomes: TESTER as root, else none."""
        if os.geteuid() != 0:
            return None
        try:
            pwd.getpwnam(TESTER)
        except KeyError:
            sh.run(['useradd', '--create-home', '--shell', '/bin/bash',
                    TESTER])
        return TESTER

    def playbook(self, wheel):
        """The passing subset through playbooks/conformance.yaml, started.

        Returns ``finish``: it waits for the playbook and checks what it
        did (``finish(abandon=True)``, for a stage that failed beside it:
        waits only; the run it makes as TESTER goes through su, in a
        session of its own that a signal to the playbook would not reach,
        and ends by itself).
        """
        base = self.base
        user = self.tester()
        fetched = base + '/fetched'
        sh.echo('-- the passing subset through ansible-playbook '
                'playbooks/conformance.yaml, as %s, from the wheel: exit 0, '
                'every artifact fetched, the version reported (started; '
                'judged after the devstack jobs\' run and the claim that '
                'lies)'
                % (user or 'this user'))
        variables = {
            'ansible_python_interpreter': '/usr/bin/python3',
            'pending_conformance_cloud': 'aio-admin',
            'pending_conformance_clouds_yaml': sh.path('clouds.yaml'),
            'pending_conformance_claims': sh.path('claims.yaml'),
            'pending_conformance_accounts': base + '/accounts-admin.yaml',
            'pending_conformance_mode': 'explore',
            'pending_conformance_regex': SUBSET,
            'pending_conformance_package': wheel,
            'pending_conformance_fetch_dir': fetched}
        if user:
            variables['pending_conformance_base'] = (
                pwd.getpwnam(user).pw_dir + '/pending-conformance')
        with open(base + '/playbook-vars.json', 'w') as f:
            json.dump(variables, f)
        argv = ['ansible-playbook', '-i', 'localhost,', '-c', 'local',
                os.path.join(REPO, 'playbooks', 'conformance.yaml'),
                '-e', '@' + base + '/playbook-vars.json']
        if user:
            argv += ['--become', '--become-user', user,
                     '--become-method', 'su']
        log = base + '/playbook.log'
        with open(log, 'w') as f:
            proc = sh.start(argv, stdout=f, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)

        def finish(abandon=False):
            if abandon:
                proc.wait()
                return
            self.judge_playbook(proc.wait(), log, variables, user, wheel,
                                fetched)
        return finish

    def judge_playbook(self, rc, log, variables, user, wheel, fetched):
        """What the playbook of :meth:`playbook` did, checked."""
        base = self.base
        sh.echo('-- the playbook (playbooks/conformance.yaml) ended: exit '
                '%d' % rc)
        if rc:
            fail('ansible-playbook playbooks/conformance.yaml exited %d; '
                 'see %s (and the run in %s)' % (
                     rc, log, variables.get('pending_conformance_base')
                     or 'the home of this user'))
        pbase = variables.get('pending_conformance_base') or (
            os.path.expanduser('~/pending-conformance'))
        self.certificate(user, pbase, os.path.dirname(wheel),
                         fetched + '/localhost/report.json')
        if user:
            sh.run(['rm', '-rf', variables['pending_conformance_base']])
        need = 'pending-conformance %s ' % THROWAWAY_VERSION
        if sh.grep_q(re.escape(need), log) != 0:
            fail("the playbook's run does not print '%s' (--version); see %s"
                 % (need.strip(), log))
        out = fetched + '/localhost'
        for name in ARTIFACTS:
            if not non_empty(out + '/' + name):
                fail('artifact %s not fetched (or empty) to %s' % (name, out))
        sh.pending_aio('stage', 'runner-pass', out,
                       base + '/accounts-admin.yaml', THROWAWAY_VERSION)

    def certificate(self, user, pbase, dist, fetched_report):
        """bundle with the release's runner, verify with this checkout's.

        The playbook's run (the wheel of THROWAWAY_VERSION, as USER) is
        bundled and signed with a new key; this checkout's verifier passes
        it with the key's allowed_signers line and tools/build's
        SUITE-SHA256SUMS, and refuses a file changed after signing,
        another key and another suite, each with its own message.
        """
        base = self.base + '/certificate'
        cert = pbase + '/cert'
        if not shutil.which('ssh-keygen'):
            # The functional stage's "up over SSH" installs it earlier.
            fail('ssh-keygen is needed to sign and verify bundles: apt-get '
                 'install openssh-client')
        sh.echo("-- bundle (the wheel's runner, as %s) -> verify (this "
                "checkout's): it passes; a changed file, another key, "
                'another suite are refused' % (user or 'this user'))
        os.makedirs(base, exist_ok=True)
        os.makedirs(cert, exist_ok=True)
        for name, where in (('vendor', cert), ('other', base)):
            sh.run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-C',
                    'certs@%s.example' % name, '-f', where + '/' + name])
            with open(where + '/' + name + '.pub') as f:
                key = f.read().split()
            with open(base + '/allowed-' + name, 'w') as f:
                f.write('certs@%s.example namespaces="%s" %s %s\n' % (
                    name, 'pending-conformance-bundle', key[0], key[1]))
        with open(fetched_report) as f:
            region = json.load(f)['header'].get('region') or 'RegionOne'
        with open(cert + '/product.yaml', 'w') as f:
            f.write('vendor: Example\nproduct: Embedded cloud\n'
                    'version: "%s"\ncloud: aio\nregion: %s\n'
                    % (THROWAWAY_VERSION, region))
        as_user = []
        if user:
            sh.run(['chown', '-R', user, cert])
            as_user = ['runuser', '-u', user, '--']
        log = base + '/bundle.log'
        if sh.run_to(log, as_user + [
                pbase + '/venv/bin/pending-conformance', 'bundle',
                '--workspace', pbase + '/workspace', '--product',
                cert + '/product.yaml', '--sign-key', cert + '/vendor',
                '--output', cert + '/bundle.tar.gz'], both=True,
                check=False):
            fail('pending-conformance bundle failed; see %s' % log)
        good = base + '/bundle.tar.gz'
        sh.run(['cp', cert + '/bundle.tar.gz', good])
        sums = dist + '/SUITE-SHA256SUMS'
        expect(0, base + '/verify.log', r'^  verdict derived again',
               'verify', good, '--allowed-signers', base + '/allowed-vendor',
               '--suite-hashes', sums, '--principal', 'certs@vendor.example')
        # A file changed after signing.
        tampered = base + '/tampered.tar.gz'
        with tarfile.open(good) as src, tarfile.open(tampered, 'w:gz') as out:
            for member in src.getmembers():
                data = src.extractfile(member).read()
                if member.name.endswith('/results/tempest.log'):
                    data += b'edited after signing\n'
                    member.size = len(data)
                out.addfile(member, io.BytesIO(data))
        expect(1, base + '/verify-tampered.log',
               r'REFUSED: results/tempest\.log: sha256 ', 'verify', tampered,
               '--allowed-signers', base + '/allowed-vendor',
               '--suite-hashes', sums)
        expect(1, base + '/verify-other-key.log',
               r'REFUSED: manifest\.json\.sig: made by no key of', 'verify',
               good, '--allowed-signers', base + '/allowed-other',
               '--suite-hashes', sums)
        with open(sums) as f, open(base + '/FOREIGN-SUMS', 'w') as out:
            out.write(f.read() + '0' * 64 + '  pending_tempest_plugin/x.py\n')
        expect(1, base + '/verify-foreign.log',
               r"REFUSED: .*not the release's suite", 'verify', good,
               '--allowed-signers', base + '/allowed-vendor',
               '--suite-hashes', base + '/FOREIGN-SUMS')

    def rerun(self, ws):
        """A setUpClass error, --rerun-failed, diff; mixed reports refused.

        Half of a command pair is a configuration error of the test class:
        its setUpClass fails, and so every requirement of the class.  With
        the pair back, the rerun runs the class's selected tests again into
        the same folder; its report keeps both attempts and passes, saying
        so first; diff names the rows that changed; merge refuses this
        report with the release's (another plugin version).
        """
        base = self.base + '/rerun'
        out = base + '/out'
        conf = ws + '/etc/tempest.conf'
        sh.echo('-- a setUpClass error fails every requirement of its '
                'class; run --rerun-failed, diff; merge refuses mixed '
                'reports')
        os.makedirs(base, exist_ok=True)
        with open(conf) as f:
            text = f.read()
        sh.sed(conf, conf, sh.delete_line('compute_start_command'))
        try:
            expect(1, base + '/first.log',
                   'setUpClass of HostStatusTest failed', 'run',
                   '--workspace', ws, '--mode', 'explore', '--regex',
                   SUBSET, '--output', out)
        finally:
            with open(conf, 'w') as f:
                f.write(text)
        sh.run(['cp', out + '/report.json', base + '/first.json'])
        expect(0, base + '/rerun.log', r'\(on rerun 2: \d+ row\(s\)',
               'run', '--workspace', ws, '--mode', 'explore',
               '--rerun-failed', out + '/report.json')
        with open(out + '/report.json') as f:
            attempts = json.load(f)['header'].get('attempts') or []
        if [a.get('attempt') for a in attempts] != [1, 2] or not non_empty(
                out + '/attempt-2/results.subunit'):
            fail('the rerun\'s report keeps %d attempt(s), not 2 (and '
                 'attempt-2/results.subunit); see %s' % (len(attempts), out))
        expect(1, base + '/diff.log', r'^changed  HS-01 +fail -> pass',
               'diff', base + '/first.json', out + '/report.json')
        expect(2, base + '/mixed.log',
               r'different suites: plugin version %s' % re.escape(
                   THROWAWAY_VERSION), 'merge', '--output',
               base + '/mixed.json', self.base + '/fetched/localhost/'
               'report.json', out + '/report.json')

    def devstack_run(self):
        """The devstack jobs' run playbook on a devstack-like layout.

        playbooks/zuul/devstack-conformance-run.yaml, the part of the
        devstack jobs' run after devstack, as a devstack job runs it:
        Tempest's directory with devstack's tempest.conf (here the
        embedded cloud's, its claims in [nova_conformance]) and the plugin
        in .tox/tempest; the artifacts must land in the job's output folder.
        """
        base = self.base + '/devstack'
        tempest = base + '/opt/tempest'
        home = base + '/home'
        sh.echo('-- the devstack jobs\' run (playbooks/zuul/'
                'devstack-conformance-run.yaml) on a devstack-like layout: '
                'init --from-tempest-conf, the artifacts in the job\'s '
                'output folder')
        os.makedirs(tempest + '/etc', exist_ok=True)
        os.makedirs(tempest + '/.tox/tempest/bin', exist_ok=True)
        os.makedirs(home, exist_ok=True)
        sh.run(['cp', sh.path('tempest', 'etc', 'tempest.conf'),
                tempest + '/etc/tempest.conf'])
        os.symlink(sh.path('venvs', 'tools', 'bin', 'pending-conformance'),
                   tempest + '/.tox/tempest/bin/pending-conformance')
        with open(base + '/inventory.yaml', 'w') as f:
            f.write('tempest:\n  hosts:\n    localhost:\n'
                    '      ansible_connection: local\n')
        with open(base + '/vars.json', 'w') as f:
            json.dump({'devstack_base_dir': base + '/opt',
                       'ansible_user_dir': home,
                       # Tempest's user on devstack; here this stage's.
                       'pending_tempest_user': pwd.getpwuid(
                           os.geteuid()).pw_name,
                       'ansible_python_interpreter': '/usr/bin/python3',
                       'tempest_test_regex': SUBSET,
                       'tempest_concurrency': 2}, f)
        log = base + '/playbook.log'
        if sh.run_to(log, ['ansible-playbook', '-i', base + '/inventory.yaml',
                           os.path.join(REPO, 'playbooks', 'zuul',
                                        'devstack-conformance-run.yaml'),
                           '-e', '@' + base + '/vars.json'],
                     both=True, check=False):
            fail('playbooks/zuul/devstack-conformance-run.yaml failed; see %s'
                 % log)
        out = home + '/zuul-output/logs/conformance'
        for name in ARTIFACTS:
            if not non_empty(out + '/' + name):
                fail("artifact %s not in the job's output folder %s"
                     % (name, out))
        with open(out + '/report.json') as f:
            header = json.load(f)['header']
        for key in ('cloud_id', 'plugin_version', 'tempest_version',
                    'catalogue_sha256', 'claims'):
            if not header.get(key):
                fail("the devstack run's report header lacks %s" % key)
        if header.get('leaks'):
            fail("the devstack run left resources behind: %s"
                 % header['leaks'])
        sh.echo("ok: the devstack run's artifacts in %s (%s), header with "
                'cloud, versions and claims, no leak'
                % (out, ', '.join(ARTIFACTS)))

    def member(self):
        # The member-only run reaches the cloud as an operator without
        # admin often does: an application credential, and Keystone behind
        # TLS with a private CA (python -m pending_aio tls-proxy in front of
        # Keystone; clouds.yaml's cacert).
        base = self.base
        claims = sh.path('claims.yaml')
        member_env = {'OS_CLIENT_CONFIG_FILE': base + '/clouds.yaml'}
        sh.echo("-- the member's cloud entry: an application credential, "
                'Keystone over TLS with a private CA')
        os.makedirs(base + '/tls', exist_ok=True)
        log = base + '/tls/proxy.log'
        with open(log, 'w') as f:
            self.tls = sh.start(
                sh.pending_aio_argv('tls-proxy', base + '/tls', '5443',
                                    '5000'),
                env=sh.pending_aio_env(), stdout=f, stderr=subprocess.STDOUT)
        self.trap.set(self.remove_tls)
        checks.wait_or_exit('the TLS endpoint',
                            lambda: sh.grep_q('ready', log) == 0, 5, 0.1,
                            'functional-runner: the TLS endpoint did not '
                            'start; see %s' % log)
        self.fixture('appcred', 'create')
        sh.echo('-- without the CA, init refuses clearly')
        expect(2, base + '/member-no-ca.log', NO_CA,
               'init', '--os-cloud', 'member-appcred-tls-no-ca',
               '--workspace', base + '/member-no-ca', '--claims', claims,
               '--accounts', base + '/accounts-member.yaml', env=member_env)
        sh.echo("-- member credentials only: a verdict over what a member can "
                "decide, every admin row 'needs admin'")
        pc('init', '--os-cloud', 'member-appcred-tls',
           '--workspace', base + '/member', '--claims', claims,
           '--accounts', base + '/accounts-member.yaml',
           env=member_env, stdout=subprocess.DEVNULL)
        conf = base + '/member/etc/tempest.conf'
        if sh.grep_q('^%s$' % re.escape(
                'ca_certificates_file = %s/tls/ca.pem' % base), conf):
            fail('tempest.conf does not name the CA of the cloud entry')
        if sh.grep_q(r'^uri_v3 = https://127\.0\.0\.1:5443/v3$', conf):
            fail('tempest.conf does not authenticate over TLS')
        expect(0, base + '/member.log', VERDICT_PASS,
               'run', '--workspace', base + '/member', '--mode', 'explore',
               '--output', base + '/member/out', '--regex', MEMBER_REGEX,
               env=member_env)
        # The secret stays in this process, never on a command line.
        secrets = sh.pending_aio_output(
            'stage', 'appcred-secret', base + '/clouds.yaml').splitlines()
        if not any(secrets):
            fail("no application credential secret to look for in the "
                 "artifacts")
        if checks.files_holding(base + '/member/out', secrets):
            fail("the application credential's secret is in an artifact")
        sh.pending_aio('stage', 'runner-member',
                       base + '/member/out/report.json')

    def exit_statuses(self):
        base = self.base
        ws = base + '/ws'
        sh.echo('-- a regex that matches nothing exits 1: nothing verified')
        expect(1, base + '/nothing.log', 'nothing verified',
               'run', '--workspace', ws, '--mode', 'explore',
               '--regex', '^no_such_test$', '--output', base + '/nothing')

        sh.echo('-- certify with the MUSTs the subset leaves out exits 1')
        expect(1, base + '/certify.log',
               r'applicable MUST requirement\(s\) not verified',
               'run', '--workspace', ws, '--mode', 'certify',
               '--regex', '^no_such_test$', '--output', base + '/certify')

        sh.echo("-- a leaked server named with the run's prefix fails "
                'certify')
        self.tls.terminate()
        self.tls.wait()
        self.fixture('appcred', 'remove')
        self.trap.set(self.remove_accounts)
        leak = sh.pending_aio_output('fixtures', 'leak', 'plant',
                                     self.prefix)
        self.trap.set(self.remove_leak)
        expect(1, base + '/leak.log',
               r'the run left 1 resource\(s\) behind: server %s' % leak,
               'run', '--workspace', ws, '--mode', 'certify',
               '--regex', '^no_such_test$', '--output', base + '/leak')
        self.fixture('leak', 'remove', False, self.prefix)
        self.fixture('accounts', 'remove')
        self.trap.clear()

    def lying(self):
        base = self.base
        sh.echo('-- a claim that lies (admin_or_owner on an admin_only '
                'cloud) exits 1 naming HS-15')
        sh.sed(sh.path('claims.yaml'), base + '/lying-claims.yaml',
               (r'^host_status_policy_profile: .*',
                'host_status_policy_profile: admin_or_owner'),
               sh.delete_line('host_status_profile_services'))
        pc('init', '--os-cloud', 'aio-admin', '--workspace', base + '/lying',
           '--claims', base + '/lying-claims.yaml',
           stdout=subprocess.DEVNULL)
        expect(1, base + '/lying.log', '^HS-15 +MUST +fail',
               'run', '--workspace', base + '/lying', '--mode', 'explore',
               '--regex', SUBSET, '--output', base + '/lying/out')
        sh.echo('-- its results.html in a real browser (headless Chromium): '
                'the failure with its message, the outcome filters')
        out = base + '/lying/out'
        log = base + '/browser.log'
        if sh.run_to(log, [sys.executable, '-m', 'pending_aio',
                           'browser-check', out + '/results.html',
                           out + '/report.json', out + '/results.png'],
                     both=True, check=False, env={'PYTHONPATH': REPO}):
            fail('the report page in Chromium: see %s' % log)
        sh.write_lines(sh.read_lines(log)[-1:])


def main(argv):
    sh.setup()
    trap = sh.Trap()
    return sh.run_stage(Runner(trap).run, trap)
