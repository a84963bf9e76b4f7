#!/bin/bash
# pending-tempest-plugin devstack plugin: patches and configures nova for the
# behaviours this suite verifies and tells Tempest what the cloud claims.
# Variables: devstack/settings; documentation: doc/source/devstack.rst.
#
# Phases (each idempotent: a second `stack` changes nothing):
#   stack pre-install  check the settings; apply the reference series to
#                      $NOVA_DIR (any node running a nova service)
#   stack post-config  nova.conf use_pending_state; the host_status policy
#                      profile merged into $NOVA_CONF_DIR/policy.yaml (n-api)
#   stack test-config  [nova_conformance] of $TEMPEST_CONFIG (tempest)

PENDING_SERIES_STATE=pending-reference-series

# Die on settings that contradict each other, before anything is changed.
function pending_check_settings {
    local profiles=$PENDING_TEMPEST_PLUGIN_DIR/pending_tempest_plugin/conformance/policy_profiles.yaml
    if ! grep -q "^${NOVA_HOST_STATUS_POLICY_PROFILE}:" "$profiles" \
            || [[ ! "$NOVA_HOST_STATUS_POLICY_PROFILE" =~ ^[a-z_]+$ ]]; then
        die $LINENO "NOVA_HOST_STATUS_POLICY_PROFILE=$NOVA_HOST_STATUS_POLICY_PROFILE" \
            "is not a profile of $profiles (known:" \
            "$(sed -n 's/^\([a-z_]*\):.*/\1/p' "$profiles" | xargs))"
    fi
    if [[ "$NOVA_USE_PENDING_STATE" == "True" && -z "$PENDING_STATE_MICROVERSION" ]]; then
        die $LINENO "NOVA_USE_PENDING_STATE=True needs PENDING_STATE_MICROVERSION" \
            "(set NOVA_REFERENCE_SERIES=True for the reference nova, or the" \
            "microversion of your nova's PENDING state): without it every" \
            "PENDING test class fails with InvalidConfiguration"
    fi
    local name value
    for name in PENDING_STATE_MICROVERSION CELL0_REBUILD_MICROVERSION; do
        value=${!name}
        if [[ -n "$value" && ! "$value" =~ ^2\.[0-9]+$ ]]; then
            die $LINENO "$name=$value is not a compute microversion (2.N)"
        fi
    done
    value=$PENDING_CONFORMANCE_SERVICE_STATE_TIMEOUT
    if [[ -n "$value" && ! "$value" =~ ^[1-9][0-9]*$ ]]; then
        die $LINENO "PENDING_CONFORMANCE_SERVICE_STATE_TIMEOUT=$value is not" \
            "a number of seconds"
    fi
    if [[ -n "$PENDING_CONFORMANCE_DISRUPTIVE_HOSTS" ]]; then
        local hosts=$PENDING_CONFORMANCE_DISRUPTIVE_HOSTS
        if [[ ! "$hosts" =~ ^[^,[:space:]]+(,[^,[:space:]]+)*$ ]]; then
            die $LINENO "PENDING_CONFORMANCE_DISRUPTIVE_HOSTS=$hosts is not a" \
                "comma separated list of host names"
        fi
        if [[ -z "${PENDING_CONFORMANCE_COMPUTE_STOP_COMMAND// /}" \
                || -z "${PENDING_CONFORMANCE_COMPUTE_START_COMMAND// /}" ]]; then
            die $LINENO "PENDING_CONFORMANCE_DISRUPTIVE_HOSTS needs both" \
                "PENDING_CONFORMANCE_COMPUTE_STOP_COMMAND and" \
                "PENDING_CONFORMANCE_COMPUTE_START_COMMAND"
        fi
        # A command without {host} always acts on the same compute (the
        # defaults: the Tempest node's own n-cpu), so it cannot serve two.
        if [[ "$hosts" == *,* && ( "$PENDING_CONFORMANCE_COMPUTE_STOP_COMMAND" != *"{host}"* \
                || "$PENDING_CONFORMANCE_COMPUTE_START_COMMAND" != *"{host}"* ) ]]; then
            die $LINENO "PENDING_CONFORMANCE_DISRUPTIVE_HOSTS=$hosts names" \
                "several hosts but the compute stop/start commands have no" \
                "{host}: they would stop the same compute for every host"
        fi
    fi
    if [[ "$NOVA_REFERENCE_SERIES" == "True" && "${NOVA_BRANCH:-}" == refs/* ]]; then
        # git_clone fetches and checks out FETCH_HEAD at every stack for a
        # refs/ branch, moving HEAD under the applied series.
        die $LINENO "NOVA_REFERENCE_SERIES=True with NOVA_BRANCH=$NOVA_BRANCH:" \
            "devstack re-fetches a refs/ branch at every stack; pin a tag or branch"
    fi
    if [[ "$NOVA_REFERENCE_SERIES" == "True" && "$(trueorfalse False RECLONE)" == "True" ]]; then
        die $LINENO "NOVA_REFERENCE_SERIES=True with RECLONE=True: devstack" \
            "would reset $NOVA_DIR after the series is applied"
    fi
}

# The patch files of the series, in order (their NNNN- prefix), one a line.
function pending_series_patches {
    local dir=$1
    find "$dir" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' | LC_ALL=C sort
}

# Undo the patches named in file $2 (newest first) in the tree $1.
function pending_series_reverse {
    local tree=$1 list=$2 p
    while read -r p; do
        git -C "$tree" apply --reverse "$p" || return 1
    done < <(tac "$list")
}

# Apply the reference series to $NOVA_DIR, once.  What was applied is kept
# in the checkout's git directory ($PENDING_SERIES_STATE: a copy of the
# patches and the commit they were applied on), so that a second run sees
# the series is there, a changed series replaces the old one, and a failed
# patch leaves the tree as it was.
function pending_apply_reference_series {
    local patches tree=$NOVA_DIR
    patches=$(pending_series_patches "$NOVA_REFERENCE_PATCHES")
    [[ -n "$patches" ]] || die $LINENO "no NNNN-*.patch in $NOVA_REFERENCE_PATCHES"
    if [[ ! -d "$tree" ]]; then
        # On a gate node Zuul has prepared the checkout; elsewhere clone it
        # now, install_nova's git_clone then finds it in place.
        git_clone "$NOVA_REPO" "$tree" "$NOVA_BRANCH"
    fi
    local git_dir head state
    git_dir=$(git -C "$tree" rev-parse --absolute-git-dir 2>/dev/null) \
        || die $LINENO "NOVA_REFERENCE_SERIES: $tree is not a git checkout"
    head=$(git -C "$tree" rev-parse HEAD)
    state=$git_dir/$PENDING_SERIES_STATE

    if [[ -f "$state/applied" && "$(cat "$state/head")" == "$head" ]]; then
        local same=True p
        local -a old_names new_names
        mapfile -t old_names < <(xargs -r -n1 basename < "$state/applied")
        mapfile -t new_names < <(echo "$patches" | xargs -r -n1 basename)
        if [[ "${old_names[*]}" != "${new_names[*]}" ]]; then
            same=False
        else
            while read -r p; do
                cmp -s "$p" "$state/$(basename "$p")" || same=False
            done <<< "$patches"
        fi
        if [[ "$same" == "True" ]] && git -C "$tree" apply --reverse --check \
                "$state/$(tail -n1 "$state/applied" | xargs basename)" 2>/dev/null; then
            echo "pending-tempest-plugin: the reference series is already applied to $tree"
            return 0
        fi
        if [[ "$same" == "False" ]]; then
            echo "pending-tempest-plugin: replacing the reference series applied to $tree"
            pending_series_reverse "$tree" "$state/applied.copies" \
                || die $LINENO "$tree carries an earlier reference series that" \
                    "does not reverse; reset the checkout (git -C $tree reset --hard" \
                    "&& git -C $tree clean -fd)"
        fi
    fi
    rm -rf "$state"

    local p out
    local -a applied=()
    while read -r p; do
        if ! out=$(git -C "$tree" apply "$p" 2>&1); then
            local undo
            undo=$(mktemp)
            printf '%s\n' "${applied[@]}" | sed '/^$/d' > "$undo"
            pending_series_reverse "$tree" "$undo"
            rm -f "$undo"
            die $LINENO "NOVA_REFERENCE_SERIES: patch $p does not apply to" \
                "$tree ($NOVA_BRANCH at $head; the series is for nova 34.0.0;" \
                "$tree is left as it was): $out"
        fi
        applied+=("$p")
        echo "pending-tempest-plugin: applied $(basename "$p")"
    done <<< "$patches"

    mkdir -p "$state"
    echo "$head" > "$state/head"
    echo "$patches" > "$state/applied"
    while read -r p; do
        cp "$p" "$state/"
        echo "$state/$(basename "$p")"
    done <<< "$patches" > "$state/applied.copies"
}

function pending_configure_nova {
    if [[ "$NOVA_USE_PENDING_STATE" == "True" || "$NOVA_REFERENCE_SERIES" == "True" ]]; then
        iniset $NOVA_CONF DEFAULT use_pending_state "$NOVA_USE_PENDING_STATE"
    fi
    if [[ "$PENDING_CONFORMANCE_NOTIFICATIONS" == "True" ]]; then
        pending_configure_notifications
    fi
}

# Versioned notifications with the state changes, from the services that
# bury (the super conductor: nova.conf; the cell conductors:
# nova_cellN.conf) and build (the computes: nova-cpu.conf).  devstack
# copies nova.conf into the files it has not made yet, after this phase.
function pending_configure_notifications {
    local conf
    for conf in "$NOVA_CONF" "${NOVA_CPU_CONF:-}" "$NOVA_CONF_DIR"/nova_cell*.conf; do
        [[ -n "$conf" && -f "$conf" ]] || continue
        iniset "$conf" oslo_messaging_notifications driver messagingv2
        iniset "$conf" notifications notification_format both
        iniset "$conf" notifications notify_on_state_change vm_and_task_state
    done
}

# devstack's notification transport URL (lib/rpc_backend), the one nova's
# [oslo_messaging_notifications] transport_url is set to.
function pending_notification_url {
    if declare -f get_notification_url >/dev/null; then
        get_notification_url
    else
        get_transport_url
    fi
}

function pending_configure_policy {
    local policy=$NOVA_CONF_DIR/policy.yaml
    "${PYTHON:-python3}" "$PENDING_TEMPEST_PLUGIN_DIR/devstack/pending_policy.py" \
        "$NOVA_HOST_STATUS_POLICY_PROFILE" "$policy" \
        || die $LINENO "could not write the host_status policy profile" \
            "$NOVA_HOST_STATUS_POLICY_PROFILE into $policy"
    if [[ -f "$policy" ]]; then
        iniset $NOVA_CONF oslo_policy policy_file "$policy"
    fi
}

# Set option $1 of [nova_conformance] to $2, or remove it when $2 is empty
# (an empty string would be read as a claim).
function pending_tempest_claim {
    if [[ -n "$2" ]]; then
        iniset $TEMPEST_CONFIG nova_conformance "$1" "$2"
    else
        inidelete $TEMPEST_CONFIG nova_conformance "$1"
    fi
}

# The claims: the same [nova_conformance] keys the embedded cloud writes
# (playbooks/roles/aio_seed/templates/claims.yaml.j2).
function pending_configure_tempest {
    local claim
    pending_tempest_claim host_status_policy_profile "$NOVA_HOST_STATUS_POLICY_PROFILE"
    pending_tempest_claim pending_state_enabled "$NOVA_USE_PENDING_STATE"
    pending_tempest_claim pending_state_microversion "$PENDING_STATE_MICROVERSION"
    pending_tempest_claim cell0_rebuild_microversion "$CELL0_REBUILD_MICROVERSION"

    local hosts=$PENDING_CONFORMANCE_DISRUPTIVE_HOSTS
    if [[ -n "$hosts" ]]; then
        pending_tempest_claim disruptive_tests True
        pending_tempest_claim disruptive_hosts "$hosts"
        pending_tempest_claim compute_stop_command "$PENDING_CONFORMANCE_COMPUTE_STOP_COMMAND"
        pending_tempest_claim compute_start_command "$PENDING_CONFORMANCE_COMPUTE_START_COMMAND"
    else
        pending_tempest_claim disruptive_tests False
        for claim in disruptive_hosts compute_stop_command compute_start_command; do
            pending_tempest_claim $claim ""
        done
    fi

    # The providers the NoValidHost trigger may give capacity: named, never
    # "any compute" (devstack's compute runs on this node by default).
    local capacity=${PENDING_CONFORMANCE_CAPACITY_HOSTS:-${hosts:-$(hostname)}}
    pending_tempest_claim capacity_hosts "$capacity"
    pending_tempest_claim compute_host_cells "$PENDING_CONFORMANCE_COMPUTE_HOST_CELLS"

    # A stopped compute reads down only after nova's service_down_time
    # (devstack writes six NOVA_SERVICE_REPORT_INTERVAL: 720 s by default,
    # 60 s with the interval of 10 s the multinode job sets; without
    # nova.conf, nova's default of 60 s); five times that leaves room for
    # the restart, as the embedded cloud.
    local timeout=$PENDING_CONFORMANCE_SERVICE_STATE_TIMEOUT down_time=""
    if [[ -z "$timeout" ]]; then
        if [[ -f "$NOVA_CONF" ]]; then
            down_time=$(iniget $NOVA_CONF DEFAULT service_down_time)
        fi
        [[ "$down_time" =~ ^[0-9]+$ ]] || down_time=60
        timeout=$((down_time * 5))
    fi
    pending_tempest_claim service_state_timeout "$timeout"

    if [[ "$PENDING_CONFORMANCE_NOTIFICATIONS" == "True" ]]; then
        pending_tempest_claim notification_transport_url "$(pending_notification_url)"
    else
        pending_tempest_claim notification_transport_url ""
    fi

    pending_configure_tempest_microversion
}

# devstack's configure_tempest sets [compute] max_microversion to
# TEMPEST_COMPUTE_MAX_MICROVERSION, "latest" by default, which covers every
# microversion.  A job that pins it lower (stable branches do) would make
# every test class of a claimed microversion skip: raise it to the highest
# claimed one, which this nova serves since it claims it.  Unset (compute
# v2.0, no microversion testing) is left alone.
function pending_configure_tempest_microversion {
    local current highest
    current=$(iniget $TEMPEST_CONFIG compute max_microversion)
    highest=$(printf '%s\n' "$PENDING_STATE_MICROVERSION" "$CELL0_REBUILD_MICROVERSION" \
        | sed '/^$/d' | sort -V | tail -n1)
    if [[ -z "$highest" || -z "$current" || "$current" == "latest" ]]; then
        return 0
    fi
    if [[ "$(printf '%s\n' "$current" "$highest" | sort -V | tail -n1)" != "$current" ]]; then
        echo "pending-tempest-plugin: [compute] max_microversion $current -> $highest" \
            "(the highest claimed microversion)"
        iniset $TEMPEST_CONFIG compute max_microversion "$highest"
    fi
}

if [[ "$1" == "stack" ]]; then
    case "$2" in
        pre-install)
            pending_check_settings
            if [[ "$NOVA_REFERENCE_SERIES" == "True" ]] && is_service_enabled nova; then
                pending_apply_reference_series
            fi
            ;;
        post-config)
            pending_check_settings
            if is_service_enabled nova; then
                pending_configure_nova
            fi
            if is_service_enabled n-api; then
                pending_configure_policy
            fi
            ;;
        test-config)
            pending_check_settings
            if is_service_enabled tempest; then
                pending_configure_tempest
            fi
            ;;
    esac
fi
