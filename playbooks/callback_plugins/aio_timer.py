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
"""Record the wall time of every task (for tools/bench-aio).

Enabled by ansible.cfg; writes JSON lines to $AIO_TIMINGS when it is set,
and does nothing otherwise.
"""

import json
import os
import time

from ansible.plugins.callback import CallbackBase

DOCUMENTATION = '''
    name: aio_timer
    type: aggregate
    short_description: per-task wall time for the embedded cloud benchmark
    description: Writes one JSON line per task to $AIO_TIMINGS.
'''


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'aggregate'
    CALLBACK_NAME = 'aio_timer'
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self):
        super().__init__()
        self._path = os.environ.get('AIO_TIMINGS')
        self._task = None
        self._start = None

    def _flush(self):
        if self._path and self._task is not None:
            with open(self._path, 'a') as f:
                f.write(json.dumps({'task': self._task,
                                    'seconds': time.time() - self._start})
                        + '\n')
        self._task = None

    def v2_playbook_on_task_start(self, task, is_conditional):
        self._flush()
        self._task = task.get_name()
        self._start = time.time()

    def v2_playbook_on_stats(self, stats):
        self._flush()
