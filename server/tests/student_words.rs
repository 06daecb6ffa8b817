//! The words a student meets that misled (issue 38): a failed compile names the file they
//! uploaded and offers no logs of games never played; a contest without an interval between
//! submissions does not say "one submission every 0 s".

use crate::support;

use std::time::Duration;

use support::{api_submission, wait_for, TestContest};

const ROSTER: &str = "student_id,name\n2301,Ada\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_compile_names_the_students_file_and_offers_no_logs() {
    let c = TestContest::start(None, "", ROSTER, 1).await;
    let mut ada = c.client();
    ada.first_sign_in("2301", "ada", "correct horse 1").await;
    let (_, token) = ada.api_token("2301", "correct horse 1").await;
    let token = token["token"].as_str().expect("a token").to_string();
    let broken = b"int main(void) { return x; }\n".to_vec();
    let id = ada
        .submit_file("c", "first_try.c", broken)
        .await
        .expect("accepted");
    let v = wait_for(Duration::from_secs(60), "the failed compile", || async {
        let v = api_submission(&c, &token, id).await;
        (v["status"] == "failed").then_some(v)
    })
    .await;
    // The build's own name is in the stored log (the API gives it as the compiler wrote it)...
    let stored = v["compile_log"].as_str().unwrap_or_default().to_string();
    assert!(stored.contains("main.c"), "{stored}");
    // ... and the page says the student's.
    let (_, page) = ada.get(&format!("/submissions/{id}")).await;
    assert!(page.contains("first_try.c:1:"), "{page}");
    assert!(!page.contains("main.c"), "{page}");
    assert!(
        !page.contains(&format!("/submissions/{id}/logs")),
        "logs offered for games never played: {page}"
    );
    assert!(
        page.contains(&format!("/submissions/{id}/source")),
        "{page}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_interval_is_said_as_none() {
    // The test contest has min_interval_s = 0.
    let c = TestContest::start(None, "", ROSTER, 0).await;
    let mut ada = c.client();
    ada.first_sign_in("2301", "ada", "correct horse 1").await;
    let (_, page) = ada.get("/submit").await;
    assert!(!page.contains("every 0 s"), "{page}");
    assert!(page.contains("submit whenever you like"), "{page}");
}
