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
"""What the tests of the collection's module_utils share.

Bad input must stop the playbook with a message naming the service and its
log file, check mode must change nothing, and a diff must never show a
secret; the tests pin that without a cloud, each in a temporary directory.
"""

import os

import fixtures
from oslotest import base

# This file is in the collection's tests/unit; the playbooks are six folders
# up.
COLLECTION = os.path.abspath(os.path.join(os.path.dirname(__file__), '..',
                                          '..'))
PLAYBOOKS = os.path.abspath(os.path.join(COLLECTION, '..', '..', '..', '..'))


class AioTestCase(base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.tmp = self.useFixture(fixtures.TempDir()).path

    def path(self, *parts):
        return os.path.join(self.tmp, *parts)
