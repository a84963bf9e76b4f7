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
"""Stand-ins shared by the helper unit tests."""

import os

import fixtures
from oslo_config import cfg
from oslotest import base

from pending_tempest_plugin import config as project_config


REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')


class FileTestCase(base.BaseTestCase):
    """A test with a temporary folder and a helper writing files into it."""

    def setUp(self):
        super().setUp()
        self.tmp = self.useFixture(fixtures.TempDir()).path

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write(text)
        return path


class CleanupRecorder(object):
    """Plays the test case a helper registers its cleanups on."""

    def __init__(self):
        self.cleanups = []

    def addCleanup(self, func, *args, **kwargs):
        self.cleanups.append((func, args, kwargs))

    def run_cleanups(self):
        while self.cleanups:
            func, args, kwargs = self.cleanups.pop()
            func(*args, **kwargs)


class FakeClock(fixtures.Fixture):
    """Patch time.monotonic / time.sleep of ``module``: sleeping advances."""

    def __init__(self, module):
        self.module = module

    def _setUp(self):
        self.now = 0.0
        self.sleeps = []
        self.useFixture(fixtures.MockPatchObject(
            self.module.time, 'monotonic', side_effect=lambda: self.now))
        self.useFixture(fixtures.MockPatchObject(
            self.module.time, 'sleep', side_effect=self._sleep))

    def _sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds


class ConfTestCase(base.BaseTestCase):
    """A private ConfigOpts with [nova_conformance]; ``set()`` overrides."""

    def setUp(self):
        super().setUp()
        conf = cfg.ConfigOpts()
        project_config.register_opts(conf)
        conf([])
        self.conf = conf
        self.group = conf[project_config.GROUP_NAME]

    def set(self, **overrides):
        for name, value in overrides.items():
            self.conf.set_override(name, value,
                                   group=project_config.GROUP_NAME)
            self.addCleanup(self.conf.clear_override, name,
                            group=project_config.GROUP_NAME)
