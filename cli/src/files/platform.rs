//! What differs between Unix and other systems in reading inputs and writing outputs.

use std::ffi::{OsStr, OsString};
use std::fs::{DirBuilder, FileType, OpenOptions};
use std::path::PathBuf;

/// An OS string (an argument, a file name, an environment variable) as text. On Unix it
/// is bytes, as the reference takes it: bytes that are not UTF-8 are carried
/// (`ytt::bytestr`) and come out as they came in; elsewhere it is Unicode already.
pub fn text_of_os(s: &OsStr) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        ytt::bytestr::decode(s.as_bytes()).into_owned()
    }
    #[cfg(not(unix))]
    {
        s.to_string_lossy().into_owned()
    }
}

/// The path that text made by [`text_of_os`] (or typed as UTF-8) names.
pub fn path_of_text(s: &str) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        PathBuf::from(OsString::from_vec(ytt::bytestr::encode(s).into_owned()))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(OsString::from(s))
    }
}

/// A named pipe (`/dev/stdin`, process substitution `<(cmd)`): read like a file. Other
/// systems have none that `std::fs` tells apart.
pub(crate) fn is_fifo(ft: &FileType) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        ft.is_fifo()
    }
    #[cfg(not(unix))]
    {
        let _ = ft;
        false
    }
}

/// Output files and directories are created with mode 0700, as the reference creates
/// them; elsewhere with the system's defaults.
pub(crate) fn private_file(o: &mut OpenOptions) -> &mut OpenOptions {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o700)
    }
    #[cfg(not(unix))]
    o
}

/// See [`private_file`].
pub(crate) fn private_dir(b: &mut DirBuilder) -> &mut DirBuilder {
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(0o700)
    }
    #[cfg(not(unix))]
    b
}
