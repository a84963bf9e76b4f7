#!/usr/bin/env python3
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
"""Process control for the embedded cloud (stdlib only).

The playbooks call this for the steps that need a precise error message or a
bounded wait: installing Debian packages, checking ports, one-shot bootstrap
commands, and starting a supervised service until it answers.  Every failure
ends with one line naming the service and its log file, then the log's tail.

A step that changed something prints ``CHANGED`` on its last line so that the
playbook can report convergence honestly.
"""

import argparse
import hashlib
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request


def fail(message, log=None, tail=25):
    sys.stderr.write('ERROR: %s\n' % message)
    if log and os.path.exists(log):
        sys.stderr.write('---- last %d lines of %s ----\n' % (tail, log))
        with open(log, errors='replace') as f:
            sys.stderr.writelines(f.readlines()[-tail:])
    sys.exit(1)


def changed():
    print('CHANGED')


# ---------------------------------------------------------------- apt ----

def installed(pkg):
    out = subprocess.run(
        ['dpkg-query', '-W', '-f=${Status}', pkg],
        capture_output=True, text=True)
    return out.returncode == 0 and out.stdout.endswith(' installed')


def cmd_apt(args):
    wanted = dict(p.split('=', 1) for p in args.packages)
    missing = [p for p in wanted if not installed(p)]
    if not missing:
        return
    env = dict(os.environ, DEBIAN_FRONTEND='noninteractive')
    with open(args.log, 'a') as log:
        for cmd in (['apt-get', 'update'],
                    ['apt-get', 'install', '-y', '--no-install-recommends']
                    + missing):
            log.write('$ %s\n' % ' '.join(cmd))
            log.flush()
            rc = subprocess.call(cmd, stdout=log, stderr=subprocess.STDOUT,
                                 env=env)
            if rc:
                # Name the package(s) apt could not provide.
                bad = [p for p in missing if subprocess.run(
                    ['apt-cache', 'show', p], capture_output=True
                ).returncode != 0]
                names = ', '.join('%s (%s)' % (p, wanted[p])
                                  for p in (bad or missing))
                fail('apt could not install %s; see %s' % (names, args.log),
                     args.log)
    changed()


# -------------------------------------------------------------- ports ----

def listeners():
    """Map listening TCP port -> pid (from ss)."""
    out = subprocess.run(['ss', '-Hltnp'], capture_output=True, text=True)
    result = {}
    for line in out.stdout.splitlines():
        fields = line.split()
        if len(fields) < 4:
            continue
        port = fields[3].rsplit(':', 1)[-1]
        pid = None
        if 'pid=' in line:
            pid = int(line.split('pid=', 1)[1].split(',', 1)[0])
        if port.isdigit():
            result.setdefault(int(port), pid)
    return result


def ancestors(pid):
    chain = []
    while pid and pid > 1:
        chain.append(pid)
        try:
            with open('/proc/%d/stat' % pid) as f:
                pid = int(f.read().rsplit(')', 1)[1].split()[1])
        except OSError:
            break
    return chain


def read_pid(path):
    try:
        with open(path) as f:
            pid = int(f.read().strip())
        os.kill(pid, 0)
        return pid
    except (OSError, ValueError):
        return None


def cmdline(pid):
    try:
        with open('/proc/%d/cmdline' % pid, 'rb') as f:
            return f.read().replace(b'\0', b' ').decode(errors='replace')
    except OSError:
        return '?'


def cmd_ports(args):
    ours = read_pid(args.supervisor_pidfile)
    busy = listeners()
    problems = []
    for item in args.ports:
        name, port = item.split('=', 1)
        pid = busy.get(int(port), 'absent')
        if pid == 'absent':
            continue
        if ours and pid and ours in ancestors(pid):
            continue
        problems.append('port %s (needed by %s) is already in use by pid %s '
                        '(%s)' % (port, name, pid,
                                  cmdline(pid).strip() if pid else '?'))
    if problems:
        fail('; '.join(problems) + '. Stop that process or change '
             'aio_ports in playbooks/group_vars/all.yaml.')


# ---------------------------------------------------------------- run ----

def run_steps(steps):
    """Run bootstrap steps concurrently, each logging to its own file.

    A step is {"name", "what", "log", "cmd", "marker"?, "cwd"?}.  Steps
    whose marker exists are skipped; a step that succeeds writes its
    marker.  Every step is waited for; the first failed one (in input
    order) stops the playbook with its service, what failed and its log
    (the others that failed are named before it).  Prints CHANGED if any
    step ran.
    """
    steps = [s for s in steps
             if not (s.get('marker') and os.path.exists(s['marker']))]
    running = []
    for step in steps:
        os.makedirs(os.path.dirname(step['log']), exist_ok=True)
        log = open(step['log'], 'a')
        log.write('$ %s\n' % ' '.join(step['cmd']))
        log.flush()
        running.append((step, log, subprocess.Popen(
            step['cmd'], stdout=log, stderr=subprocess.STDOUT,
            cwd=step.get('cwd'))))
    failed = []
    for step, log, proc in running:
        rc = proc.wait()
        log.close()
        if rc:
            failed.append((step, rc))
        elif step.get('marker'):
            with open(step['marker'], 'w') as f:
                f.write('%s\n' % time.strftime('%Y-%m-%dT%H:%M:%S'))
    if failed:
        for step, rc in failed[1:]:
            sys.stderr.write('ERROR: %s: %s failed (exit %d); see %s\n'
                             % (step['name'], step['what'], rc, step['log']))
        step, rc = failed[0]
        fail('%s: %s failed (exit %d); see %s'
             % (step['name'], step['what'], rc, step['log']), step['log'])
    if steps:
        changed()


def cmd_run(args):
    """One bootstrap step (guarded by --marker when given)."""
    run_steps([{'name': args.name, 'what': args.what, 'log': args.log,
                'marker': args.marker, 'cwd': args.cwd,
                'cmd': args.command}])


def cmd_run_many(args):
    """``run`` for several independent steps at once (JSON on stdin)."""
    run_steps(json.load(sys.stdin))


# ------------------------------------------------------------- cached ----

def cmd_cached(args):
    """Run a command once per distinct input; replay its output after.

    The key is a hash of ``--key``, of stdin (the command's input) and of
    the text of every ``.py`` script in the command.  When
    ``--file`` holds output stored under the same key, print ``CACHED`` and
    that output without running anything; otherwise run the command with the
    same stdin and, if it succeeds, store its output.  The files live in the
    cloud's data directory, so ``down --purge`` forgets them with the data
    they describe.
    """
    data = sys.stdin.buffer.read()
    digest = hashlib.sha256(args.key.encode() + b'\0' + data)
    # A changed script is a changed input: its text is part of the key.
    for arg in args.command:
        if arg.endswith('.py') and os.path.isfile(arg):
            with open(arg, 'rb') as f:
                digest.update(b'\0' + f.read())
    key = digest.hexdigest()
    try:
        with open(args.file) as f:
            stored_key, _, output = f.read().partition('\n')
        if stored_key == key:
            sys.stdout.write('CACHED\n' + output)
            return
    except FileNotFoundError:
        pass
    proc = subprocess.run(args.command, input=data, capture_output=True)
    sys.stderr.write(proc.stderr.decode(errors='replace'))
    output = proc.stdout.decode(errors='replace')
    sys.stdout.write(output)
    if proc.returncode:
        sys.exit(proc.returncode)
    os.makedirs(os.path.dirname(args.file), exist_ok=True)
    tmp = args.file + '.tmp'
    with open(tmp, 'w') as f:
        f.write(key + '\n' + output)
    os.replace(tmp, args.file)


# -------------------------------------------------------------- files ----

def cmd_write_files(args):
    """Create directories and write files whose content differs.

    Reads JSON from stdin: {"dirs": [{"path", "owner"?, "mode"?}],
    "files": [{"path", "content", "mode"?}]}.  One process for every
    configuration file of the cloud: far cheaper than one module run each.
    """
    spec = json.load(sys.stdin)
    did = []
    for d in spec.get('dirs', []):
        if not os.path.isdir(d['path']):
            os.makedirs(d['path'])
            did.append(d['path'])
        owner = d.get('owner')
        if owner:
            st = os.stat(d['path'])
            pw = pwd.getpwnam(owner)
            if (st.st_uid, st.st_gid) != (pw.pw_uid, pw.pw_gid):
                shutil.chown(d['path'], owner, owner)
                did.append(d['path'])
        mode = d.get('mode')
        if mode and os.stat(d['path']).st_mode & 0o7777 != int(mode, 8):
            os.chmod(d['path'], int(mode, 8))
            did.append(d['path'])
    for f in spec.get('files', []):
        path, content = f['path'], f['content']
        mode = int(str(f.get('mode', '0644')), 8)
        try:
            with open(path) as fh:
                same = fh.read() == content
        except OSError:
            same = False
        if not same:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            tmp = path + '.aio-tmp'
            with open(tmp, 'w') as fh:
                fh.write(content)
            os.chmod(tmp, mode)
            os.replace(tmp, path)
            did.append(path)
        elif os.stat(path).st_mode & 0o7777 != mode:
            os.chmod(path, mode)
            did.append(path)
    if did:
        print('wrote: %s' % ', '.join(did))
        changed()


# --------------------------------------------------------- supervisor ----

class Supervisor(object):
    def __init__(self, conf, ctl, daemon, pidfile):
        self.conf, self.ctl, self.daemon, self.pidfile = (
            conf, ctl, daemon, pidfile)

    def running(self):
        return read_pid(self.pidfile) is not None

    def call(self, *words, check=True):
        out = subprocess.run([self.ctl, '-c', self.conf] + list(words),
                             capture_output=True, text=True)
        if check and out.returncode not in (0, 3):
            # 3 = some process not running (status); anything else is real.
            fail('supervisorctl %s: %s%s' % (' '.join(words), out.stdout,
                                             out.stderr))
        return out.stdout

    # Stopped only once everything else has: RabbitMQ, seeing the epmd it
    # registered with vanish while it still runs, starts one of its own
    # (`epmd -daemon`, outside the supervisor, holding epmd's port), and the
    # next `up` then finds the port taken.  `stop all` stops every program
    # at once, so a CI run hit that race at the stock leg's down --purge.
    STOP_LAST = ('epmd',)

    def stop_all(self):
        """Stop every program, STOP_LAST ones after all the others."""
        names = list(self.states())
        first = [n for n in names if n not in self.STOP_LAST]
        last = [n for n in names if n in self.STOP_LAST]
        for wave in (first, last):
            if wave:
                self.call('stop', *wave, check=False)

    def states(self):
        """{program: state} for every program, in one supervisorctl call."""
        result = {}
        for line in self.call('status', check=False).splitlines():
            words = line.split()
            if len(words) > 1:
                result[words[0]] = words[1]
        return result

    def start_daemon(self):
        if self.running():
            return False
        rc = subprocess.call([self.daemon, '-c', self.conf])
        if rc:
            fail('supervisord did not start (exit %d)' % rc)
        for _ in range(100):
            if self.running() and self.call('pid', check=False).strip():
                return True
            time.sleep(0.1)
        fail('supervisord did not answer on its socket')


def probe(url=None, port=None):
    if port:
        try:
            socket.create_connection(('127.0.0.1', port), timeout=2).close()
        except OSError:
            return False
    if url:
        try:
            urllib.request.urlopen(url, timeout=3)
        except urllib.error.HTTPError as e:
            return e.code < 500
        except (urllib.error.URLError, OSError):
            return False
    return True


def supervisor_from(args):
    return Supervisor(args.conf, args.ctl, args.daemon, args.pidfile)


def cmd_supervisord(args):
    if supervisor_from(args).start_daemon():
        changed()


def fingerprint(program):
    """Hash of a program's command line and of the files it reads."""
    digest = hashlib.sha256(program.get('command', '').encode())
    for path in program.get('configs') or []:
        try:
            with open(path, 'rb') as f:
                digest.update(f.read())
        except OSError:
            digest.update(b'missing:' + path.encode())
    return digest.hexdigest()


def cmd_ensure(args):
    """Start, or restart after a config change, programs; wait for them."""
    sup = supervisor_from(args)
    programs = json.loads(args.programs)
    did = set()
    for line in sup.call('update').splitlines():
        for p in programs:
            if line.startswith(p['name'] + ':'):
                did.add(p['name'])
    states = sup.states()
    for p in programs:
        name = p['name']
        marker = os.path.join(args.state_dir, 'fingerprint-%s' % name)
        try:
            with open(marker) as f:
                old = f.read().strip()
        except OSError:
            old = None
        state = states.get(name, 'ABSENT')
        if state == 'ABSENT':
            fail('%s: no supervisor program of that name' % name)
        if state not in ('RUNNING', 'STARTING'):
            sup.call('start', name, check=False)
            did.add(name)
        elif old != fingerprint(p) and name not in did:
            sup.call('restart', name, check=False)
            did.add(name)
    deadline = time.time() + args.timeout
    waiting = list(programs)
    while waiting:
        states = sup.states()
        for p in list(waiting):
            name = p['name']
            log = os.path.join(args.log_dir, '%s.log' % name)
            state = states.get(name, 'ABSENT')
            if state in ('FATAL', 'EXITED', 'BACKOFF', 'STOPPED'):
                fail('%s did not start (supervisor state %s); see %s'
                     % (name, state, log), log)
            if state == 'RUNNING' and probe(p.get('url'), p.get('port')):
                with open(os.path.join(args.state_dir,
                                       'fingerprint-%s' % name), 'w') as f:
                    f.write(fingerprint(p))
                waiting.remove(p)
            elif time.time() > deadline:
                what = p.get('url') or ('port %s' % p['port']
                                        if p.get('port') else 'RUNNING')
                fail('%s did not answer on %s within %ds (state %s); see %s'
                     % (name, what, args.timeout, state, log), log)
        if waiting:
            time.sleep(0.5)
    if did:
        print('started or restarted: %s' % ', '.join(sorted(did)))
        changed()


def cmd_wait(args):
    """Wait for a shell condition (exit 0) with a bound."""
    deadline = time.time() + args.timeout
    while subprocess.call(args.command, shell=True,
                          stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL):
        if time.time() > deadline:
            fail('%s: timed out after %ds waiting for: %s; see %s'
                 % (args.name, args.timeout, args.command, args.log),
                 args.log)
        time.sleep(1)


# ---------------------------------------------------------------- down ----

def our_processes(aio_dir):
    """Processes whose command line or cwd mention the state directory."""
    pids = []
    me = os.getpid()
    for entry in os.listdir('/proc'):
        if not entry.isdigit() or int(entry) == me:
            continue
        pid = int(entry)
        try:
            cwd = os.readlink('/proc/%d/cwd' % pid)
        except OSError:
            cwd = ''
        if aio_dir in cmdline(pid) or cwd.startswith(aio_dir):
            if pid not in ancestors(me):
                pids.append(pid)
    return pids


def cmd_down(args):
    sup = supervisor_from(args)
    if sup.running():
        sup.stop_all()
        sup.call('shutdown', check=False)
        for _ in range(600):
            if not sup.running():
                break
            time.sleep(0.2)
    # Whatever survived (a stuck worker, a daemon started by hand): TERM,
    # then KILL.
    for sig in (signal.SIGTERM, signal.SIGKILL):
        pids = our_processes(args.aio_dir)
        for pid in pids:
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        deadline = time.time() + 10
        while pids and time.time() < deadline:
            pids = [p for p in pids if os.path.exists('/proc/%d' % p)]
            time.sleep(0.2)
    for ns in args.netns:
        subprocess.call(['ip', 'netns', 'delete', ns],
                        stderr=subprocess.DEVNULL)
    left = our_processes(args.aio_dir)
    if left:
        fail('processes still running after down: %s' % ', '.join(
            '%d (%s)' % (p, cmdline(p)[:80]) for p in left))
    if args.purge:
        for name in ('data', 'state', 'run', 'etc', 'tempest', 'wsgi',
                     'clouds.yaml', 'openrc', 'claims.yaml'):
            path = os.path.join(args.aio_dir, name)
            if os.path.isdir(path):
                shutil.rmtree(path)
            elif os.path.exists(path):
                os.unlink(path)
    print('embedded cloud stopped%s' % (' and purged' if args.purge else ''))


# -------------------------------------------------------------- status ----

def cmd_status(args):
    sup = supervisor_from(args)
    checks = json.loads(args.checks) if args.checks else {}
    if not sup.running():
        print('supervisord is not running: the embedded cloud is down')
        sys.exit(3)
    rows, bad = [], 0
    for line in sup.call('status', check=False).splitlines():
        words = line.split()
        if len(words) < 2:
            continue
        name, state = words[0], words[1]
        check = checks.get(name)
        if state != 'RUNNING':
            health = '-'
            bad += 1
        elif check:
            ok = probe(check.get('url'), check.get('port'))
            health = ('answers' if ok else 'NOT ANSWERING') + ' (%s)' % (
                check.get('url') or 'port %s' % check.get('port'))
            bad += not ok
        else:
            health = 'running'
        rows.append((name, state, health))
    width = max(len(r[0]) for r in rows) if rows else 10
    for name, state, health in rows:
        print('%-*s  %-9s %s' % (width, name, state, health))
    sys.exit(1 if bad else 0)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest='cmd', required=True)

    p = sub.add_parser('apt')
    p.add_argument('--log', required=True)
    p.add_argument('packages', nargs='+', help='package=description')
    p.set_defaults(func=cmd_apt)

    p = sub.add_parser('ports')
    p.add_argument('--supervisor-pidfile', required=True)
    p.add_argument('ports', nargs='+', help='name=port')
    p.set_defaults(func=cmd_ports)

    p = sub.add_parser('run')
    p.add_argument('--name', required=True)
    p.add_argument('--what', default='bootstrap step')
    p.add_argument('--log', required=True)
    p.add_argument('--marker')
    p.add_argument('--cwd')
    p.add_argument('command', nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_run)

    p = sub.add_parser('run-many')
    p.set_defaults(func=cmd_run_many)

    p = sub.add_parser('cached')
    p.add_argument('--file', required=True)
    p.add_argument('--key', default='')
    p.add_argument('command', nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_cached)

    p = sub.add_parser('write-files')
    p.set_defaults(func=cmd_write_files)

    p = sub.add_parser('wait')
    p.add_argument('--name', required=True)
    p.add_argument('--log')
    p.add_argument('--timeout', type=int, default=60)
    p.add_argument('command')
    p.set_defaults(func=cmd_wait)

    for name, func in (('supervisord', cmd_supervisord),
                       ('ensure', cmd_ensure), ('down', cmd_down),
                       ('status', cmd_status)):
        p = sub.add_parser(name)
        p.add_argument('--conf', required=True)
        p.add_argument('--ctl', required=True)
        p.add_argument('--daemon', required=True)
        p.add_argument('--pidfile', required=True)
        p.set_defaults(func=func)
        if name == 'ensure':
            p.add_argument('--programs', required=True,
                           help='JSON list of {name, command, configs, '
                                'url | port}')
            p.add_argument('--state-dir', required=True)
            p.add_argument('--log-dir', required=True)
            p.add_argument('--timeout', type=int, default=180)
        if name == 'down':
            p.add_argument('--aio-dir', required=True)
            p.add_argument('--purge', action='store_true')
            p.add_argument('--netns', action='append', default=[])
        if name == 'status':
            p.add_argument('--checks', help='JSON {program: {url|port}}')

    args = parser.parse_args(argv)
    if getattr(args, 'command', None) and args.command[:1] == ['--']:
        args.command = args.command[1:]
    args.func(args)


if __name__ == '__main__':
    main()
