# Sourced by the install scripts (the caller defines `log`). apt_install PACKAGE... installs
# what dpkg does not have yet, through sudo unless root (`env` keeps DEBIAN_FRONTEND an
# assignment when $sudo is empty). apt can fail half way once on these machines (a cleanup
# deletes downloaded packages): the same command is retried.
apt_install() {
  local missing=()
  # `dpkg -s` also succeeds for a removed package whose config files remain.
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "apt-get install ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  for attempt in 1 2 3; do
    if $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; then
      return 0
    fi
    log "apt attempt $attempt failed; retrying"
    sleep 2
  done
  return 1
}
