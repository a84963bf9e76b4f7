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
"""The one polling loop of the project.

Every wait (a server status, a service's liveness, a deleted server's
leftovers, the embedded cloud's smoke checks, a mutant's restart) calls
:func:`poll`: fetch a value until it is done or the time is up.  It logs
each change of the watched state (``describe(value)``) with the seconds
since the wait began, so a log shows what a slow or failed wait went
through, not only where it ended.

It depends on nothing but the standard library: the embedded cloud's
tools use it as well as the Tempest tests.
"""

import logging
import time

LOG = logging.getLogger(__name__)


class PollTimeout(Exception):
    """The wait's time is up; ``value`` is the last one fetched."""

    def __init__(self, what, timeout, value, described):
        super().__init__('%s: not done within %s s; last: %s'
                         % (what, timeout, described))
        self.value = value


def poll(fetch, done, timeout, interval, what='wait', describe=repr,
         timed_out=None, log=None):
    """Call ``fetch()`` until ``done(value)`` is true; return that value.

    :param fetch: no-argument callable returning the current value.
    :param done: ``done(value)``: true ends the wait; it may raise to end
                 it early (a terminal state that is not the expected one).
    :param timeout: seconds; the last fetch happens at or after it.
    :param interval: seconds between fetches.
    :param what: what is awaited, for the log and the timeout message.
    :param describe: ``describe(value)``: the state logged when it changes.
    :param timed_out: ``timed_out(value)`` returns the exception raised at
                      the timeout; default :class:`PollTimeout`.
    :param log: the logger (default this module's).
    """
    log = log or LOG
    clock = time.monotonic
    start = clock()
    deadline = start + timeout
    last = object()
    while True:
        value = fetch()
        state = describe(value)
        if state != last:
            log.info('%s: %s (after %.1f s)', what, state, clock() - start)
            last = state
        if done(value):
            return value
        if clock() >= deadline:
            if timed_out is not None:
                raise timed_out(value)
            raise PollTimeout(what, timeout, value, state)
        time.sleep(interval)
