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
"""The embedded cloud's progress: one line per task, with the elapsed time.

The stdout callback of playbooks/ansible.cfg.  Each play and task prints
one line as it starts, ``[  1:23] TASK aio_mariadb : mariadb | ...``
(minutes:seconds since the playbook started); a task still running
prints ``[  2:05] ... still: TASK ... (40 s)`` once the output has been
silent for 20 seconds, so it never stays silent longer than that.  What
succeeds prints nothing more but its warnings and what a debug task says;
a failure and an unreachable host print as
Ansible's default callback prints them, so every message of a failed task
is there; the recap is one line per host (``ok=N changed=N
unreachable=N failed=N ...``).
``ANSIBLE_STDOUT_CALLBACK=default`` gives Ansible's whole log back.
"""

import threading
import time

from ansible.plugins.callback.default import CallbackModule as Default

DOCUMENTATION = '''
    name: aio_progress
    type: stdout
    short_description: one line per task with the elapsed time
    description:
      - Prints each play and task as it starts with the time elapsed since
        the playbook started, a line every 20 seconds while a task runs,
        and failures and the recap as the default callback does.
    extends_documentation_fragment:
      - default_callback
      - result_format_callback
'''

HEARTBEAT = 20


class CallbackModule(Default):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'stdout'
    CALLBACK_NAME = 'aio_progress'

    def __init__(self):
        super().__init__()
        self._started = time.monotonic()
        self._task = None
        self._task_started = None
        self._last_line = self._started
        # Re-entrant: the heartbeat holds it from its check to its line, so
        # a line about a task that has just ended never follows the next.
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._beat = threading.Thread(target=self._heartbeat, daemon=True)
        self._beat.start()

    def _elapsed(self):
        seconds = int(time.monotonic() - self._started)
        return '[%3d:%02d]' % (seconds // 60, seconds % 60)

    def _say(self, text):
        with self._lock:
            self._display.display('%s %s' % (self._elapsed(), text))
            self._last_line = time.monotonic()

    def _heartbeat(self):
        # Checked every second: a line once the output has been silent for
        # HEARTBEAT seconds while a task runs.
        while not self._stop.wait(1):
            with self._lock:
                silent = time.monotonic() - self._last_line
                if self._task is not None and silent >= HEARTBEAT:
                    self._say('... still: TASK %s (%d s)' % (
                        self._task, time.monotonic() - self._task_started))

    # What starts: one line each.
    def v2_playbook_on_play_start(self, play):
        self._play = play
        self._say('PLAY %s' % (play.get_name().strip() or 'unnamed'))

    def v2_playbook_on_task_start(self, task, is_conditional):
        self._task_start(task, prefix='TASK')

    def v2_playbook_on_handler_task_start(self, task):
        self._task_start(task, prefix='RUNNING HANDLER')

    def _task_start(self, task, prefix):
        # The default callback keeps the task for its failure messages.
        self._last_task_banner = task._uuid
        self._last_task_name = task.get_name().strip()
        with self._lock:
            self._task = task.get_name().strip()
            self._task_started = time.monotonic()
        self._say('%s %s' % (prefix, self._task))

    # What succeeds or is skipped: nothing more than its warnings, but what
    # a debug task says.
    def v2_runner_on_ok(self, result):
        self._handle_warnings_and_exception(result)
        if result.task.action in ('debug', 'ansible.builtin.debug'):
            self._say('%s: %s' % (self.host_label(result), result.result.get(
                'msg', self._dump_results(result.result))))

    def v2_runner_on_skipped(self, result):
        self._handle_warnings_and_exception(result)

    def v2_runner_item_on_ok(self, result):
        self._handle_warnings_and_exception(result)

    def v2_runner_item_on_skipped(self, result):
        self._handle_warnings_and_exception(result)

    def v2_runner_retry(self, result):
        pass

    def v2_playbook_on_include(self, included_file):
        pass

    def v2_playbook_on_no_hosts_matched(self):
        self._say('no host matched')

    # What fails, and the recap: as the default callback prints them.
    def v2_runner_on_failed(self, result, ignore_errors=False):
        if ignore_errors:
            return
        self._say('FAILED: TASK %s' % self._last_task_name)
        super().v2_runner_on_failed(result, ignore_errors)

    def v2_runner_item_on_failed(self, result):
        self._say('FAILED: TASK %s (an item)' % self._last_task_name)
        super().v2_runner_item_on_failed(result)

    def v2_runner_on_unreachable(self, result):
        self._say('UNREACHABLE: TASK %s' % self._last_task_name)
        super().v2_runner_on_unreachable(result)

    def v2_playbook_on_stats(self, stats):
        self._stop.set()
        with self._lock:
            self._task = None
        names = (('ok', 'ok'), ('changed', 'changed'),
                 ('unreachable', 'unreachable'), ('failures', 'failed'),
                 ('skipped', 'skipped'), ('rescued', 'rescued'),
                 ('ignored', 'ignored'))
        for host in sorted(stats.processed):
            counts = stats.summarize(host)
            self._say('RECAP %s: %s' % (host, ' '.join(
                '%s=%d' % (shown, counts[name]) for name, shown in names)))
