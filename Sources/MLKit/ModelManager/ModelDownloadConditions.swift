import Foundation

/// Conditions for downloading a remote model: Firebase's `ModelDownloadConditions`.
///
/// On Linux, `allowsCellularAccess` is passed to `URLSessionConfiguration` (which has no
/// notion of cellular networks there) and `allowsBackgroundDownloading` is ignored:
/// there are no background sessions, so a download lasts as long as the process.
public final class ModelDownloadConditions: NSObject, NSCopying, @unchecked Sendable {
    /// Whether the download may use a cellular connection. Default `true`.
    public let allowsCellularAccess: Bool
    /// Whether the download may continue while the app is in the background. Default `false`.
    public let allowsBackgroundDownloading: Bool

    public init(allowsCellularAccess: Bool, allowsBackgroundDownloading: Bool) {
        self.allowsCellularAccess = allowsCellularAccess
        self.allowsBackgroundDownloading = allowsBackgroundDownloading
        super.init()
    }

    /// Conditions with the defaults: cellular access allowed, no background downloading.
    public override convenience init() {
        self.init(allowsCellularAccess: true, allowsBackgroundDownloading: false)
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        ModelDownloadConditions(
            allowsCellularAccess: allowsCellularAccess, allowsBackgroundDownloading: allowsBackgroundDownloading)
    }
}

extension Notification.Name {
    /// Posted to `NotificationCenter.default` when ``ModelManager/download(_:conditions:)``
    /// has installed the model (or found the current version already installed).
    /// `userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue]` is the ``RemoteModel``;
    /// the notification's `object` is the ``ModelManager``.
    public static let firebaseMLModelDownloadDidSucceed = Notification.Name("FIRModelDownloadDidSucceedNotification")
    /// Posted to `NotificationCenter.default` when a download fails; the previously
    /// installed version (if any) stays installed. `userInfo` holds the ``RemoteModel``
    /// under ``ModelDownloadUserInfoKey/remoteModel`` and the `NSError` (domain
    /// ``MachineLearningErrorDomain``) under ``ModelDownloadUserInfoKey/error``.
    public static let firebaseMLModelDownloadDidFail = Notification.Name("FIRModelDownloadDidFailNotification")
}

/// Keys of the `userInfo` of the model download notifications. Apps index `userInfo` by
/// the `rawValue`: `userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel`.
public struct ModelDownloadUserInfoKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The ``RemoteModel`` the notification is about.
    public static let remoteModel = ModelDownloadUserInfoKey(rawValue: "FIRModelDownloadUserInfoKeyRemoteModel")
    /// The `NSError` describing why a download failed.
    public static let error = ModelDownloadUserInfoKey(rawValue: "FIRModelDownloadUserInfoKeyError")
}
