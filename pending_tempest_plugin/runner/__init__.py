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
"""``pending-conformance``: the conformance run for any cloud.

``init`` writes a Tempest workspace from a clouds.yaml entry and a claims
file, ``run`` runs the suite there and writes the artifacts and the verdict,
``merge`` combines the reports of several runs of one cloud, ``cleanup``
removes what ``init --create`` made.  See doc/source/running.rst.
"""
