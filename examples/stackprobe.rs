// temporary: run ytt on a thread with a given stack size
fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let kb: usize = std::env::var("STACK_KB").unwrap().parse().unwrap();
    let h = std::thread::Builder::new()
        .stack_size(kb * 1024)
        .spawn(move || {
            let mut a = vec![std::ffi::OsString::from("ytt")];
            a.extend(args[1..].iter().cloned());
            ytt::cmd::run(a)
        })
        .unwrap();
    match h.join().unwrap() {
        Ok(()) => println!("OK"),
        Err(e) => println!("ERR {}", format!("{e:#}").lines().next().unwrap_or("")),
    }
}
