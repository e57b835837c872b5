//! libFuzzer target: any input must parse without panicking, and an accepted input must be
//! writable and read back as the same problem.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(problem) = dimspec::parse(data) {
        let bytes = dimspec::to_bytes(&problem).expect("an accepted problem is writable");
        let again = dimspec::parse(&bytes).expect("the written form is accepted");
        assert_eq!(again, problem, "the written form reads back differently");
    }
});
