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
"""The stages CI runs against the embedded cloud (``tox`` environments).

``functional`` is the functional stage from end to end; it calls the
others: ``plugin_legs`` (the plugin's suite, leg by leg, mutants and
wrong claims), ``runner_stage`` (``pending-conformance`` as an operator
runs it), ``upgrade`` (a rolling upgrade of stock nova to the series),
``bad_input`` (``up`` refuses bad input), ``browser`` (a report page in
a real browser).  ``conformance`` is ``tox -e conformance`` (the verdict
of the cloud, leg by leg); ``venv_steps`` holds the steps the stages run
with the cloud's tools venv.
"""
