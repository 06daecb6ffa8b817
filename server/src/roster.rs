//! The class roster: a CSV with a header naming at least the login column (the student
//! number). New accounts get the student number as their password (seed 001), or a random
//! one written to a CSV for the TA; either must be changed at the first sign-in. Existing
//! accounts keep their password and get the new name and role.

use std::path::Path;

use anyhow::{bail, Context};
use arbiter_queue::Db;

/// One line of the roster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub login: String,
    pub name: String,
    pub nickname: Option<String>,
    pub admin: bool,
}

/// What an import did.
#[derive(Clone, Debug, Default)]
pub struct Imported {
    pub added: usize,
    pub updated: usize,
    /// (login, password) of new accounts given random passwords.
    pub passwords: Vec<(String, String)>,
}

const MAX_ROWS: usize = 100_000;

/// Parses the roster. Column names are matched without case: `login` (or `student_id`,
/// `student number`, `id`, `username`, `学号`), `name` (or `姓名`), `nickname`, `role`
/// (`student` or `staff`/`admin`).
pub fn parse(text: &str, origin: &str) -> anyhow::Result<Vec<Entry>> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers: Vec<String> = reader
        .headers()
        .with_context(|| format!("{origin}: no header line"))?
        .iter()
        .map(|h| h.trim_start_matches('\u{feff}').to_lowercase())
        .collect();
    let find = |names: &[&str]| headers.iter().position(|h| names.contains(&h.as_str()));
    let Some(login_col) = find(&[
        "login",
        "student_id",
        "student number",
        "student_number",
        "id",
        "username",
        "number",
        "学号",
    ]) else {
        bail!("{origin}: the header has no login column (found: {}); name one `login` or `student_id`", headers.join(", "));
    };
    let name_col = find(&["name", "full name", "full_name", "姓名"]);
    let nick_col = find(&["nickname", "昵称"]);
    let role_col = find(&["role"]);
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut seen_nicknames = std::collections::HashSet::new();
    for (i, record) in reader.records().enumerate() {
        let line = i + 2;
        let record = record.with_context(|| format!("{origin}: line {line}"))?;
        if record.iter().all(|f| f.is_empty()) {
            continue;
        }
        if out.len() >= MAX_ROWS {
            bail!("{origin}: more than {MAX_ROWS} rows");
        }
        let get = |c: Option<usize>| c.and_then(|c| record.get(c)).unwrap_or("").to_string();
        let login = get(Some(login_col));
        if !valid_login(&login) {
            bail!("{origin}: line {line}: login {login:?}: use 1 to 64 letters, digits, '.', '_', '-' or '@'");
        }
        if !seen.insert(login.clone()) {
            bail!("{origin}: line {line}: login {login} appears twice");
        }
        let name = get(name_col);
        let role = get(role_col).to_lowercase();
        let admin = match role.as_str() {
            "" | "student" => false,
            "staff" | "admin" | "ta" | "teacher" => true,
            other => bail!("{origin}: line {line}: role {other:?}: use student or staff"),
        };
        if name.chars().count() > 100 {
            bail!("{origin}: line {line}: a name longer than 100 characters");
        }
        // The same rules as a nickname chosen on the site: NFKC, nothing invisible, and no two
        // that read alike.
        let nickname = crate::names::normalise(&get(nick_col))
            .map_err(|m| anyhow::anyhow!("{origin}: line {line}: {m}"))?;
        let nickname = Some(nickname).filter(|n| !n.is_empty());
        if let Some(n) = &nickname {
            if !seen_nicknames.insert(crate::names::key(n)) {
                bail!("{origin}: line {line}: nickname {n:?} reads like an earlier line's");
            }
        }
        out.push(Entry {
            name: if name.is_empty() { login.clone() } else { name },
            login,
            nickname,
            admin,
        });
    }
    if out.is_empty() {
        bail!("{origin}: no students in the roster");
    }
    Ok(out)
}

fn valid_login(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '@'))
}

/// Adds or updates the accounts.
pub async fn import(
    db: &Db,
    entries: &[Entry],
    random_passwords: bool,
) -> anyhow::Result<Imported> {
    let mut imported = Imported::default();
    let existing: std::collections::HashSet<String> = sqlx::query_scalar("SELECT login FROM users")
        .fetch_all(db.pool())
        .await?
        .into_iter()
        .collect();
    let new: Vec<&Entry> = entries
        .iter()
        .filter(|e| !existing.contains(&e.login))
        .collect();
    let passwords: Vec<String> = new
        .iter()
        .map(|e| {
            if random_passwords {
                crate::auth::random_password()
            } else {
                e.login.clone()
            }
        })
        .collect();
    let hashes = hash_all(passwords.clone()).await;
    let mut tx = db.begin().await?;
    for ((e, password), hash) in new.iter().zip(&passwords).zip(&hashes) {
        sqlx::query(&format!(
            "INSERT INTO users (login, name, nickname, password, must_change, admin, created_at) \
             VALUES ($1, $2, $3, $4, 1, $5, {})",
            db.now()
        ))
        .bind(&e.login)
        .bind(&e.name)
        .bind(&e.nickname)
        .bind(hash)
        .bind(i64::from(e.admin))
        .execute(&mut *tx)
        .await?;
        imported.added += 1;
        if random_passwords {
            imported.passwords.push((e.login.clone(), password.clone()));
        }
    }
    for e in entries.iter().filter(|e| existing.contains(&e.login)) {
        sqlx::query("UPDATE users SET name = $1, admin = $2, nickname = COALESCE(nickname, $3) WHERE login = $4")
            .bind(&e.name)
            .bind(i64::from(e.admin))
            .bind(&e.nickname)
            .bind(&e.login)
            .execute(&mut *tx)
            .await?;
        imported.updated += 1;
    }
    tx.commit().await?;
    Ok(imported)
}

/// Hashes on every core: argon2 is slow on purpose, and a class is hundreds of students.
async fn hash_all(passwords: Vec<String>) -> Vec<String> {
    tokio::task::spawn_blocking(move || {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let chunk = passwords.len().div_ceil(threads).max(1);
        std::thread::scope(|s| {
            let handles: Vec<_> = passwords
                .chunks(chunk)
                .map(|c| {
                    s.spawn(move || {
                        c.iter()
                            .map(|p| crate::auth::hash_password(p))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_default())
                .collect()
        })
    })
    .await
    .unwrap_or_default()
}

/// Writes `login,password` for the TA (readable by the owner only).
pub fn write_passwords(path: &Path, passwords: &[(String, String)]) -> anyhow::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("cannot create {} (it must not exist yet)", path.display()))?;
    writeln!(file, "login,password")?;
    for (login, password) in passwords {
        writeln!(file, "{login},{password}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rosters() {
        let r = parse(
            "student_id,Name,role\n2301,Ada Lovelace,\n2302,Alan Turing,staff\n",
            "r.csv",
        )
        .unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].login, "2301");
        assert!(r[1].admin);
        let e = parse("email,name\nx@y,z\n", "r.csv")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no login column"), "{e}");
        let e = parse("login\n../x\n", "r.csv").unwrap_err().to_string();
        assert!(e.contains("line 2"), "{e}");
        let e = parse("login\na\na\n", "r.csv").unwrap_err().to_string();
        assert!(e.contains("twice"), "{e}");
        let e = parse("login,nickname\na,st\u{200b}aff\n", "r.csv")
            .unwrap_err()
            .to_string();
        assert!(e.contains("invisible"), "{e}");
        let e = parse("login,nickname\na,Ada\nb,ＡＤＡ\n", "r.csv")
            .unwrap_err()
            .to_string();
        assert!(e.contains("reads like"), "{e}");
        let r = parse("login,nickname\na,ｆｉｎｅ\n", "r.csv").unwrap();
        assert_eq!(r[0].nickname.as_deref(), Some("fine"));
    }
}
