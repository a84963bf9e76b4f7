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
"""Checks that print one line each and stop at the first failure.

The smoke checks and the other tools of the embedded cloud print ``ok:``
or ``FAIL:`` per check; a failed check exits 1.  Every wait goes through
the project's one polling loop, :func:`pending_tempest_plugin.common.
polling.poll`, which logs each change of the awaited state.
"""

import logging
import os
import sys

from pending_tempest_plugin.common import polling


def setup_logging():
    """Log the polling loop's state changes to stderr, one line each."""
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format='%(asctime)s %(message)s',
                        datefmt='%H:%M:%S')


def check(ok, message):
    """Print ``ok: MESSAGE`` or ``FAIL: MESSAGE``; exit 1 on a failure."""
    print('%s: %s' % ('ok' if ok else 'FAIL', message), flush=True)
    if not ok:
        sys.exit(1)


def wait_for(what, predicate, timeout, interval=1.0):
    """Wait until ``predicate()`` is true; its value.  A failed check if not.

    :param what: what is awaited (the log's and the failure's words)
    """
    def timed_out(value):
        check(False, 'timed out after %ds waiting for %s' % (timeout, what))

    return polling.poll(predicate, bool, timeout, interval, what=what,
                        describe=bool, timed_out=timed_out)


def wait_or_exit(what, predicate, timeout, interval, failure):
    """Wait until ``predicate()`` is true; else exit with ``failure``."""
    def timed_out(value):
        return SystemExit(failure)

    return polling.poll(predicate, bool, timeout, interval, what=what,
                        describe=bool, timed_out=timed_out)


def files_holding(top, secrets):
    """The files below TOP that hold one of SECRETS (links not followed)."""
    needles = [s.encode() for s in secrets]
    found = []
    for folder, _, files in os.walk(top):
        for name in files:
            name = os.path.join(folder, name)
            if os.path.islink(name):
                continue
            with open(name, 'rb') as f:
                data = f.read()
            if any(n in data for n in needles):
                found.append(name)
    return found
