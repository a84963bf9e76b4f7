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
"""What every file of the collection's module_utils shares (stdlib only).

The modules of this collection are thin wrappers around the functions of
``aio_apt``, ``aio_ports``, ``aio_steps``, ``aio_cache``, ``aio_files`` and
``aio_supervisor``, and ``playbooks/files/aioctl.py`` (``tools/aio
down|status``) uses them too.  A failure raises :class:`AioError`, whose
text names the service and its log file and ends with the log's tail.  Each
function that may change something takes ``check`` (report what would
change, change nothing) and returns what it changed.

Waits use :func:`poll`, the one polling loop of the code that runs on the
cloud's host (the plugin's own, ``pending_tempest_plugin.common.polling``,
is not installed there).
"""

import os
import time


class AioError(Exception):
    """A step failed: ``message``, then the last lines of ``log``."""

    def __init__(self, message, log=None, tail=25):
        super().__init__(message)
        self.message = message
        self.log = log
        self.tail = tail

    def __str__(self):
        text = self.message
        if self.log and os.path.exists(self.log):
            with open(self.log, errors='replace') as f:
                lines = f.readlines()[-self.tail:]
            text += '\n---- last %d lines of %s ----\n%s' % (
                self.tail, self.log, ''.join(lines))
        return text


def poll(fetch, done, timeout, interval, timed_out, what='wait', log=None):
    """Call ``fetch()`` until ``done(value)``; return that value.

    ``done`` may raise to end the wait early.  Past ``timeout`` seconds,
    ``timed_out(value)`` is raised.  Each change of the value is appended
    to ``log`` (a list) with the seconds since the wait began.
    """
    start = time.monotonic()
    last = object()
    while True:
        value = fetch()
        if log is not None and value != last:
            log.append('%s: %s (after %.1f s)'
                       % (what, value, time.monotonic() - start))
            last = value
        if done(value):
            return value
        if time.monotonic() - start >= timeout:
            raise timed_out(value)
        time.sleep(interval)


def environ(extra):
    """This process's environment with ``extra`` (values as text)."""
    if not extra:
        return None
    return dict(os.environ, **{k: str(v) for k, v in extra.items()})
